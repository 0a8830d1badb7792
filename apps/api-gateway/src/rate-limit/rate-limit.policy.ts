import { RATE_LIMIT_PER_WINDOW, RateLimitCategory } from '@docrender/contracts';
import type { RateLimitSettings } from '@docrender/config';

/** The limit and window one category is held to, after the settings' scale. */
export type CategoryLimit = { limit: number; windowSeconds: number };

/**
 * Spec part 8 limits under RATE_LIMIT_SCALE and RATE_LIMIT_WINDOW_SECONDS: the scaled limit is rounded down and is
 * never below 1 (a limit of 0 would refuse everything forever).
 */
export class RateLimitPolicy {
  constructor(private readonly settings: RateLimitSettings) {}

  get enabled(): boolean {
    return this.settings.enabled;
  }

  /** The sliding window's length (every category shares it). */
  get windowSeconds(): number {
    return this.settings.windowSeconds;
  }

  limitOf(category: RateLimitCategory): CategoryLimit {
    return {
      limit: Math.max(1, Math.floor(RATE_LIMIT_PER_WINDOW[category] * this.settings.scale + 1e-9)),
      windowSeconds: this.settings.windowSeconds,
    };
  }
}
