import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { metricsRegistry } from '@docrender/observability';
import type { Response } from 'express';

/**
 * Prometheus metrics of this process (`GET /metrics`, text exposition format), anonymous. On the gateway it shares
 * the public port: keep it off the ingress (docs/operations.md).
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  @Get()
  async metrics(@Res() res: Response): Promise<void> {
    res.status(200).type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  }
}
