/** What a callback waiting for a slot is told: go ahead, go back to the queue for a while, or stop (delivery lost). */
export type SlotGrant = 'go' | 'park' | 'abandoned';

type Waiter = { host: string; grant(outcome: SlotGrant): void };

export type DeliverySlotsOptions = {
  /** Deliveries in flight at once (WEBHOOK_IN_FLIGHT, spec 6.3: 16), to one host or many. */
  total: number;
  /** A host's share while callbacks to other hosts wait (WEBHOOK_PER_HOST_IN_FLIGHT). */
  perHost: number;
  /**
   * How long a callback to a host at its share may wait here for a slot before it is parked (sent back to the queue,
   * durably, for a while) so that the dispatcher can take callbacks of other hosts queued behind it
   * (WEBHOOK_HOST_BUSY_DELAY_MS).
   */
  parkAfterMs: number;
};

/**
 * The dispatcher's in-flight slots (spec 6.3): `total` deliveries at once, one host included — a host alone gets every
 * slot. The per-host share only holds a host back while callbacks to other hosts are waiting: a freed slot goes to
 * the oldest waiting callback whose host is below its share, and only when there is none to the oldest waiting
 * callback overall. Waiting happens here, in memory, on a message the dispatcher holds (its prefetch is larger than
 * `total`), so it costs no broker round trip. The one exception keeps a slow host from hiding other hosts' callbacks
 * queued behind its backlog: a callback that waited `parkAfterMs` while its host holds at least its share is parked.
 */
export class DeliverySlots {
  private running = 0;
  private readonly runningByHost = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly options: DeliverySlotsOptions) {}

  /** Resolves `go` once a slot for `host` is taken (release it after), `park` or `abandoned` without one. */
  acquire(host: string, abandoned?: AbortSignal): Promise<SlotGrant> {
    if (abandoned?.aborted) return Promise.resolve('abandoned');
    return new Promise<SlotGrant>((resolve) => {
      const parking: { timer?: NodeJS.Timeout } = {};
      const onAbort = (): void => this.leave(waiter, 'abandoned');
      const waiter: Waiter = {
        host,
        grant: (outcome) => {
          clearTimeout(parking.timer);
          abandoned?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      this.waiting.push(waiter);
      this.pump();
      if (!this.waiting.includes(waiter)) return;
      abandoned?.addEventListener('abort', onAbort, { once: true });
      parking.timer = setTimeout(() => {
        if (this.inFlightTo(host) >= this.options.perHost) this.leave(waiter, 'park');
      }, this.options.parkAfterMs);
    });
  }

  release(host: string): void {
    this.running--;
    const current = this.inFlightTo(host);
    if (current <= 1) this.runningByHost.delete(host);
    else this.runningByHost.set(host, current - 1);
    this.pump();
  }

  inFlightTo(host: string): number {
    return this.runningByHost.get(host) ?? 0;
  }

  get inFlight(): number {
    return this.running;
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  private leave(waiter: Waiter, outcome: SlotGrant): void {
    const index = this.waiting.indexOf(waiter);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    waiter.grant(outcome);
  }

  private pump(): void {
    while (this.running < this.options.total && this.waiting.length > 0) {
      const belowShare = this.waiting.findIndex((w) => this.inFlightTo(w.host) < this.options.perHost);
      const [next] = this.waiting.splice(belowShare >= 0 ? belowShare : 0, 1);
      this.running++;
      this.runningByHost.set(next.host, this.inFlightTo(next.host) + 1);
      next.grant('go');
    }
  }
}

/** The host a callback URL is delivered to (`host:port` as the URL spells it, lowercase); null for an invalid URL. */
export function callbackHostOf(callbackUrl: string): string | null {
  try {
    return new URL(callbackUrl).host.toLowerCase();
  } catch {
    return null;
  }
}

/** The URL's origin only: callback URLs carry secret tokens in their path or query, which must not reach logs. */
export function callbackOriginOf(callbackUrl: string): string {
  try {
    return new URL(callbackUrl).origin;
  } catch {
    return '(invalid URL)';
  }
}
