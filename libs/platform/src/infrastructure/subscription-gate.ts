import type { MessageName } from '@docrender/contracts';
import { checkHandlers, type MessageBus, type Subscription } from '@docrender/messaging';

/** A consumer registered while the app starts: subscribed on the real bus only once the app's handlers are checked. */
class HeldSubscription implements Subscription {
  private subscription: Promise<Subscription> | undefined;
  private cancelled = false;

  constructor(private readonly subscribe: () => Promise<Subscription>) {}

  async open(): Promise<void> {
    if (this.cancelled) return;
    this.subscription = this.subscribe();
    await this.subscription;
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
    const subscription = await this.subscription;
    await subscription?.cancel();
  }
}

/**
 * The message bus an app is given by the shared bootstrap. Its consumers register while the app starts
 * (onApplicationBootstrap) but take nothing yet: `open()` first checks the message names they registered against
 * SUBSCRIPTIONS (`checkHandlers`: every message the app subscribes to has a handler, and it handles no other app's),
 * and only then subscribes them on the real bus. So an app with a missing or foreign handler refuses to start without
 * having taken a message. Everything else goes straight to the real bus.
 */
export class SubscriptionGate {
  readonly bus: MessageBus;
  private readonly handled: MessageName[] = [];
  private readonly held: HeldSubscription[] = [];
  private opened = false;

  constructor(
    private readonly app: string,
    inner: MessageBus,
  ) {
    this.bus = {
      publish: (name, payload, options) => inner.publish(name, payload, options),
      request: (name, payload, options) => inner.request(name, payload, options),
      consume: (name, handler, options) => {
        this.handled.push(name);
        return this.hold(() => inner.consume(name, handler, options));
      },
      consumeDeadLetters: (name, handler, options) => this.hold(() => inner.consumeDeadLetters(name, handler, options)),
      queueDepth: (name) => inner.queueDepth(name),
      ping: () => inner.ping(),
      close: () => inner.close(),
    };
  }

  /** The message names the app's consumers registered handlers for. */
  handledMessages(): readonly MessageName[] {
    return this.handled;
  }

  /** Checks the app's handlers (throws UnhandledSubscriptionError), then subscribes the consumers held so far. */
  async open(): Promise<void> {
    checkHandlers(this.app, this.handled);
    this.opened = true;
    for (const subscription of this.held.splice(0)) await subscription.open();
  }

  private async hold(subscribe: () => Promise<Subscription>): Promise<Subscription> {
    if (this.opened) {
      checkHandlers(this.app, this.handled);
      return subscribe();
    }
    const held = new HeldSubscription(subscribe);
    this.held.push(held);
    return held;
  }
}
