import { SetMetadata } from '@nestjs/common';

export const RATE_LIMIT_OVERLAPPED = Symbol('RateLimitOverlapped');

/**
 * On a controller or handler limited with `@RateLimited`: RateLimitGuard starts taking the request's permit but lets
 * the handler run, and the handler joins the permit with `withPermit` around its first lookups, so the rate-limit
 * round trip to the shared store overlaps them instead of coming first. Every request still takes its one permit;
 * a refused one still costs nothing and answers 429, except that a request the route rejects before the handler
 * joins (a malformed query or path) answers that error instead.
 */
export const OverlapRateLimit = (): MethodDecorator & ClassDecorator => SetMetadata(RATE_LIMIT_OVERLAPPED, true);

const PENDING_PERMIT = Symbol('pendingPermit');
type WithPendingPermit = { [PENDING_PERMIT]?: Promise<void> };

/** Leaves the request's permit to the handler (RateLimitGuard, for routes with @OverlapRateLimit). */
export function deferPermit(request: object, permit: Promise<void>): void {
  // Observed here too: a request answered before its handler joins must not leave an unhandled rejection behind.
  permit.catch(() => undefined);
  (request as WithPendingPermit)[PENDING_PERMIT] = permit;
}

/**
 * `work` (lookups only: nothing a refused request may not do) once the request's permit is taken as well. A refused
 * permit wins over whatever `work` did, so the answer is the one the request would get with the permit taken first.
 * Without a pending permit (a route that is not limited) it is just `work`.
 */
export async function withPermit<T>(request: object, work: Promise<T>): Promise<T> {
  const permit = (request as WithPendingPermit)[PENDING_PERMIT];
  if (permit === undefined) return work;
  const [taken, done] = await Promise.allSettled([permit, work]);
  if (taken.status === 'rejected') throw taken.reason;
  if (done.status === 'rejected') throw done.reason;
  return done.value;
}
