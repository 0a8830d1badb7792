import { MessageName } from '@docrender/contracts';

/** The apps that take messages off the bus. */
export type ConsumingApp = 'render-service' | 'job-worker' | 'webhook-dispatcher';

/** Which app subscribes to each message name (the flows documented on MessageName): one consuming app each. */
export const SUBSCRIPTIONS: Readonly<Record<MessageName, ConsumingApp>> = Object.freeze({
  [MessageName.RenderDocument]: 'render-service',
  [MessageName.RenderPreview]: 'render-service',
  [MessageName.RunJob]: 'job-worker',
  [MessageName.DeliverWebhook]: 'webhook-dispatcher',
});

/** An app's consumers do not match the messages it subscribes to: the app must not start. */
export class UnhandledSubscriptionError extends Error {
  constructor(
    readonly app: string,
    readonly missing: readonly MessageName[],
    readonly foreign: readonly MessageName[],
  ) {
    const parts = [
      ...(missing.length > 0 ? [`no handler for ${missing.join(', ')}`] : []),
      ...(foreign.length > 0 ? [`handles ${foreign.join(', ')}, subscribed to by another app`] : []),
    ];
    super(`${app}: ${parts.join('; ')}`);
    this.name = 'UnhandledSubscriptionError';
  }
}

/**
 * Called by the shared bootstrap (libs/platform, SubscriptionGate) with the message names an app's consumers
 * registered handlers for, before the app takes any message: throws UnhandledSubscriptionError (so the app refuses
 * to start) when a message the app subscribes to has no handler, or when it handles a message another app subscribes
 * to (the api-gateway subscribes to none, so it may handle none).
 */
export function checkHandlers(app: string, handled: readonly MessageName[]): void {
  const subscribed = (Object.keys(SUBSCRIPTIONS) as MessageName[]).filter((name) => SUBSCRIPTIONS[name] === app);
  const missing = subscribed.filter((name) => !handled.includes(name));
  const foreign = [...new Set(handled)].filter((name) => SUBSCRIPTIONS[name] !== app);
  if (missing.length > 0 || foreign.length > 0) throw new UnhandledSubscriptionError(app, missing, foreign);
}
