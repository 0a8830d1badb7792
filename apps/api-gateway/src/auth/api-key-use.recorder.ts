import { Inject, Injectable } from '@nestjs/common';
import { ApiKeyRepository } from '@docrender/persistence';
import type { Logger } from '@docrender/observability';
import { LOGGER } from '@docrender/platform';

/** How often a key's last use is written, at most, per process (the repository also skips writes within a minute). */
export const LAST_USE_INTERVAL_MS = 60_000;
/** Past this many keys remembered, those not used within the interval are forgotten. */
const SWEEP_AT = 10_000;

/**
 * Records when each API key was last used (issue 35 item 4: the workspace lists it), cheaply: at most once a minute
 * per key in this process, without the request waiting for it, and never failing it — a failed write is logged and
 * the key's next use tries again.
 */
@Injectable()
export class ApiKeyUseRecorder {
  private readonly recorded = new Map<string, number>();
  private now: () => number = Date.now;

  constructor(
    private readonly apiKeys: ApiKeyRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** For tests: the clock. */
  withClock(now: () => number): this {
    this.now = now;
    return this;
  }

  /** Notes a use of the key; returns the write it started (tests wait on it), or null when none was due. */
  used(apiKeyId: string): Promise<void> | null {
    const now = this.now();
    const last = this.recorded.get(apiKeyId);
    if (last !== undefined && now - last < LAST_USE_INTERVAL_MS) return null;
    if (this.recorded.size >= SWEEP_AT) this.sweep(now);
    this.recorded.set(apiKeyId, now);
    return this.apiKeys.recordUse(apiKeyId, new Date(now)).then(
      () => undefined,
      (error: unknown) => {
        this.recorded.delete(apiKeyId);
        this.logger.warn("could not record an API key's last use", { apiKeyId, errorMessage: error instanceof Error ? error.message : String(error) });
      },
    );
  }

  private sweep(now: number): void {
    for (const [key, at] of this.recorded) if (now - at >= LAST_USE_INTERVAL_MS) this.recorded.delete(key);
  }
}
