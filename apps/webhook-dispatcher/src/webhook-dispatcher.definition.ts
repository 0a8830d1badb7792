import { egressSettings, webhookSettings } from '@docrender/config';
import type { ServiceDefinition } from '@docrender/platform';
import { WebhookDispatcherModule } from './app.module';
import { webhookDispatcherSettings } from './webhook-dispatcher.settings';

/** How the webhook-dispatcher starts: used by main.ts and by the one-process launcher. */
export const webhookDispatcherService: ServiceDefinition<true> = {
  name: 'webhook-dispatcher',
  database: true,
  settings: [webhookDispatcherSettings, webhookSettings, egressSettings],
  module: ({ infrastructure }) => WebhookDispatcherModule.register(infrastructure),
  port: (settings) => settings.get(webhookDispatcherSettings).port,
};
