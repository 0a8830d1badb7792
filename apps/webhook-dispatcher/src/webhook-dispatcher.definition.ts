import { loadSettings } from '@docrender/config';
import type { ServiceDefinition } from '@docrender/platform';
import { WebhookDispatcherModule } from './app.module';
import { webhookDispatcherSettings } from './webhook-dispatcher.settings';

/** How the webhook-dispatcher starts: used by main.ts and by the one-process launcher. */
export const webhookDispatcherService: ServiceDefinition = {
  name: 'webhook-dispatcher',
  module: (infrastructure, logger) => WebhookDispatcherModule.register(infrastructure, logger),
  port: (env) => loadSettings(webhookDispatcherSettings, env).port,
};
