import { ConfigOf, setting } from './setting';

/**
 * Rate limiting of the API gateway (docs/api.md#rate-limits): per organisation and category, sliding window, shared by every
 * replica through PostgreSQL. The defaults are the spec's; the knobs exist for tests and for operators who must
 * relieve a struggling database in an emergency.
 */
export const rateLimitSettings = {
  enabled: setting.bool('RATE_LIMIT_ENABLED', 'Enforce the per-organisation rate limits of docs/api.md#rate-limits (read 600, write 120, render 300 per window).', true),
  scale: setting.number(
    'RATE_LIMIT_SCALE',
    'Multiplies every category limit (rounded down, at least 1 request). 1 gives the documented limits (docs/api.md#rate-limits); tests use small values to reach a limit quickly.',
    1,
    { min: 0.0001, max: 1000 },
  ),
  windowSeconds: setting.int(
    'RATE_LIMIT_WINDOW_SECONDS',
    'Length of the sliding window in seconds. 60 is the documented window; tests shorten it to observe a window ending.',
    60,
    { min: 1, max: 3600 },
  ),
};

export type RateLimitSettings = ConfigOf<typeof rateLimitSettings>;
