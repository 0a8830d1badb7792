import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { RateLimitRepository } from '@docrender/persistence';
import { LOGGER } from '@docrender/platform';
import type { Logger } from '@docrender/observability';
import { RateLimitPolicy } from './rate-limit.policy';
import { RATE_LIMIT_POLICY } from './rate-limit.store';

/**
 * Every permit is a row; a permit older than the window is never counted again. Each gateway deletes those once a
 * window (several replicas doing it at once is harmless), so the table holds about one window of traffic.
 */
@Injectable()
export class RateLimitPermitPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly permits: RateLimitRepository,
    @Inject(RATE_LIMIT_POLICY) private readonly policy: RateLimitPolicy,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.policy.enabled) return;
    const windowMs = this.policy.windowSeconds * 1000;
    this.timer = setInterval(() => void this.prune(windowMs), windowMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Deletes the permits that left the window; returns how many. */
  async prune(windowMs: number, now: Date = new Date()): Promise<number> {
    try {
      return await this.permits.pruneOlderThan(new Date(now.getTime() - windowMs));
    } catch (err) {
      this.logger.warn('rate-limit permits could not be pruned; will try again next window', { errorMessage: err instanceof Error ? err.message : String(err) });
      return 0;
    }
  }
}
