import { MessageName } from '@docrender/contracts';
import { checkHandlers, SUBSCRIPTIONS, UnhandledSubscriptionError } from './subscriptions';

describe('an app refuses to start when a message it subscribes to has no handler (MessageName)', () => {
  it('every message name is subscribed to by exactly one app', () => {
    expect(Object.keys(SUBSCRIPTIONS).sort()).toEqual(Object.values(MessageName).sort());
  });

  it('passes when the app handles exactly the messages it subscribes to', () => {
    expect(() => checkHandlers('render-service', [MessageName.RenderDocument, MessageName.RenderPreview])).not.toThrow();
    expect(() => checkHandlers('job-worker', [MessageName.RunJob])).not.toThrow();
    expect(() => checkHandlers('webhook-dispatcher', [MessageName.DeliverWebhook])).not.toThrow();
  });

  it('refuses an app with a subscribed message left without a handler, naming the app and the message', () => {
    const check = (): void => checkHandlers('render-service', [MessageName.RenderDocument]);
    expect(check).toThrow(UnhandledSubscriptionError);
    expect(check).toThrow('render-service: no handler for render.preview');
  });

  it('refuses an app handling a message another app subscribes to (it would compete for that app’s messages)', () => {
    expect(() => checkHandlers('job-worker', [MessageName.RunJob, MessageName.DeliverWebhook])).toThrow(
      'job-worker: handles webhook.deliver, subscribed to by another app',
    );
  });
});
