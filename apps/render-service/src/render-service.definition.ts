import { renderBudgetSettings } from '@docrender/config';
import type { ServiceDefinition } from '@docrender/platform';
import { RenderServiceModule } from './render-service.module';
import { renderServiceSettings } from './render-service.settings';

/**
 * How the render service starts: used by main.ts and by the one-process launcher. It asks for no database: the shared
 * bootstrap connects only RabbitMQ (AMQP_URL is required on its own) and the blob store. The module starts the
 * Chromium pool (no Chromium stops start-up with one line saying what to install); on SIGTERM/SIGINT the service takes
 * no new work, the renders in hand finish (RENDER_SHUTDOWN_GRACE_MS), browsers close, unfinished messages go back on
 * the queue, and 20 s past the grace the process exits whatever is left.
 */
export const renderService: ServiceDefinition<false> = {
  name: 'render-service',
  database: false,
  settings: [renderServiceSettings, renderBudgetSettings],
  module: (context) => RenderServiceModule.register(context),
  port: (settings) => settings.get(renderServiceSettings).port,
  stopWithinMs: (settings) => settings.get(renderServiceSettings).shutdownGraceMs + 20_000,
};
