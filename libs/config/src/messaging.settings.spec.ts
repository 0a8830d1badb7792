import { ConfigError, loadSettings } from './setting';
import { messagingSettings } from './messaging.settings';

describe('messaging settings', () => {
  it('defaults to the in-process bus with documented limits', () => {
    expect(loadSettings(messagingSettings, {})).toEqual({
      amqpUrl: undefined,
      queuePrefix: '',
      prefetch: 8,
      deliveryLimit: 5,
      outageWaitMs: 1_000,
      outageWaitMaxMs: 10_000,
      jobQueueMaxLength: 10_000,
      webhookQueueMaxLength: 100_000,
      deadLetterMaxLength: 100_000,
      publishWaitMs: 15_000,
      connectTimeoutMs: 30_000,
      reconnectMaxDelayMs: 5_000,
    });
  });

  it('takes an amqp or amqps URL with its vhost', () => {
    expect(loadSettings(messagingSettings, { AMQP_URL: 'amqps://u:p@rabbit:5671/docrender' }).amqpUrl).toBe('amqps://u:p@rabbit:5671/docrender');
  });

  it.each([
    [{ AMQP_URL: 'http://rabbit' }, /^AMQP_URL: must use amqp or amqps/],
    [{ AMQP_PREFETCH: '0' }, /^AMQP_PREFETCH: /],
    [{ AMQP_DELIVERY_LIMIT: '-1' }, /^AMQP_DELIVERY_LIMIT: /],
    [{ AMQP_JOB_QUEUE_MAX_LENGTH: 'many' }, /^AMQP_JOB_QUEUE_MAX_LENGTH: /],
  ])('a bad value stops start-up naming the variable (%p)', (env, message) => {
    expect(() => loadSettings(messagingSettings, env)).toThrow(ConfigError);
    expect(() => loadSettings(messagingSettings, env)).toThrow(message);
  });
});
