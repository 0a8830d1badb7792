import { loadSettings } from '@docrender/config';
import type { ServiceDefinition } from '@docrender/platform';
import { ApiGatewayModule } from './app.module';
import { gatewaySettings } from '@docrender/config';
import { configureHttp } from './http/configure-http';

/** How the API gateway starts: used by main.ts and by the one-process launcher. */
export const apiGatewayService: ServiceDefinition = {
  name: 'api-gateway',
  module: (infrastructure, logger) => ApiGatewayModule.register(infrastructure, logger),
  port: (env) => loadSettings(gatewaySettings, env).port,
  configure: configureHttp,
};
