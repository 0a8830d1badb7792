/**
 * Per-callback-host admission: at most `perHost` deliveries in flight to one host (host:port), so one slow or
 * black-holed receiver cannot take every in-flight slot of the dispatcher (spec 6.3, issue: per-callback-host cap).
 */
export class HostSlots {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly perHost: number) {}

  /** Takes a slot for `host`; false when the host is at its cap. */
  tryAcquire(host: string): boolean {
    const current = this.inFlight.get(host) ?? 0;
    if (current >= this.perHost) return false;
    this.inFlight.set(host, current + 1);
    return true;
  }

  release(host: string): void {
    const current = this.inFlight.get(host) ?? 0;
    if (current <= 1) this.inFlight.delete(host);
    else this.inFlight.set(host, current - 1);
  }

  inFlightTo(host: string): number {
    return this.inFlight.get(host) ?? 0;
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
