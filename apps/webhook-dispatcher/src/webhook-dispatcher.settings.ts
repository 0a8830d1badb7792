import { setting } from '@docrender/config';

export const webhookDispatcherSettings = {
  port: setting.int('WEBHOOK_DISPATCHER_PORT', 'HTTP port of the webhook-dispatcher probes (/v1/meta/status, /v1/meta/version).', 3003, { min: 1, max: 65535 }),
};
