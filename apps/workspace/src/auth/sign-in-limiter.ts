/** The window failed sign-ins are counted in. */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * Counts failed sign-ins per e-mail address and per client address in a fixed 15-minute window (issue 35 item 1:
 * sign-in rate-limited). Past `attempts` failures for an address (five times as many for a client) sign-in is refused
 * until the window passes, whether or not the password is right, so guessing cannot go on. Counted in this process.
 */
export class SignInLimiter {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(private readonly attempts: number, private readonly now: () => number = Date.now) {}

  /** Seconds until sign-in may be tried again, or 0 when it may be tried now. */
  retryAfterSeconds(email: string, client: string): number {
    const waits = [this.waitOf(`e:${email.toLowerCase()}`, this.attempts), this.waitOf(`c:${client}`, this.attempts * 5)];
    return Math.max(...waits);
  }

  recordFailure(email: string, client: string): void {
    for (const key of [`e:${email.toLowerCase()}`, `c:${client}`]) {
      const entry = this.current(key);
      this.failures.set(key, entry ? { count: entry.count + 1, since: entry.since } : { count: 1, since: this.now() });
    }
    if (this.failures.size > 100_000) this.sweep();
  }

  /** A successful sign-in forgets the address's failures (not the client's). */
  recordSuccess(email: string): void {
    this.failures.delete(`e:${email.toLowerCase()}`);
  }

  private waitOf(key: string, limit: number): number {
    const entry = this.current(key);
    if (!entry || entry.count < limit) return 0;
    return Math.ceil((entry.since + SIGN_IN_WINDOW_MS - this.now()) / 1000);
  }

  private current(key: string): { count: number; since: number } | undefined {
    const entry = this.failures.get(key);
    if (entry && this.now() - entry.since >= SIGN_IN_WINDOW_MS) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    for (const key of [...this.failures.keys()]) this.current(key);
  }
}
