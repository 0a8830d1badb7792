import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { gatewaySettings, Settings } from '@docrender/config';
import { startMetricsServer } from '@docrender/platform';

/**
 * The gateway's Prometheus metrics on GATEWAY_METRICS_PORT (issue 17: never anonymously on the public API port);
 * not served at all when the setting is 0.
 */
@Injectable()
export class GatewayMetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: { close(): Promise<void> } | null = null;

  constructor(private readonly settings: Settings) {}

  async onApplicationBootstrap(): Promise<void> {
    const { metricsPort } = this.settings.get(gatewaySettings);
    if (metricsPort > 0) this.server = await startMetricsServer(metricsPort);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
  }
}
