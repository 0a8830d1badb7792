import { egressSettings, gatewaySettings, jobsSettings, rateLimitSettings, renderApiSettings, renderBudgetSettings, viewUrlSettings } from '@docrender/config';
import type { ServiceDefinition } from '@docrender/platform';
import { ApiGatewayModule } from './app.module';
import { configureHttp } from './http/configure-http';

/** How the API gateway starts: used by main.ts and by the one-process launcher. */
export const apiGatewayService: ServiceDefinition<true> = {
  name: 'api-gateway',
  database: true,
  settings: [gatewaySettings, jobsSettings, egressSettings, renderApiSettings, renderBudgetSettings, rateLimitSettings, viewUrlSettings],
  module: ({ infrastructure }) => ApiGatewayModule.register(infrastructure),
  port: (settings) => settings.get(gatewaySettings).port,
  configure: configureHttp,
};
