import { Controller, Get, Header, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { VersionProbeDto } from '@docrender/contracts';
import type { Response } from 'express';
import { buildVersion } from './build-version';
import { checkReadiness, READINESS_CHECKS, ReadinessCheck } from './readiness';

/** Spec 4.17: the two anonymous probes. Served by every app on its own port. */
@ApiTags('meta')
@Controller('v1/meta')
export class MetaController {
  private readonly version = buildVersion();

  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

  @Get('status')
  @ApiOperation({ summary: 'Readiness probe: database and blob storage reachable (anonymous, no rate limit).' })
  @ApiOkResponse({ description: 'Both dependencies respond; empty body.' })
  @ApiServiceUnavailableResponse({
    description: 'Plain-text reason naming the unreachable dependency (not the error envelope).',
    content: { 'text/plain': { schema: { type: 'string' }, example: 'database unreachable: connect ECONNREFUSED 127.0.0.1:5432' } },
  })
  async status(@Res() res: Response): Promise<void> {
    const result = await checkReadiness(this.checks);
    if (result.ready) {
      res.status(200).end();
      return;
    }
    res.status(503).type('text/plain').send(result.reason);
  }

  @Get('version')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Deployed build version (anonymous, no rate limit).' })
  @ApiOkResponse({ type: VersionProbeDto })
  getVersion(): VersionProbeDto {
    return { version: this.version };
  }
}
