import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, Environment, ErrorCode, RateLimitCategory } from '@docrender/contracts';
import type { AuthenticatedRequest } from '../auth/caller';
import { OverlapRateLimit, withPermit } from './overlapped-permit';
import { RateLimit } from '../http/route-category';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitPolicy } from './rate-limit.policy';
import { RateLimiter } from './rate-limiter';
import type { RateLimitDecision, RateLimitStore } from './rate-limit.store';

class Routes {
  @RateLimit(RateLimitCategory.Write) write(): void {}
  unlimited(): void {}
}
@RateLimit(RateLimitCategory.Read)
class ReadRoutes {
  list(): void {}
  @RateLimit(RateLimitCategory.Write) patch(): void {}
}

@RateLimit(RateLimitCategory.Render)
@OverlapRateLimit()
class OverlappedRoutes {
  render(): void {}
}

type Call = { organisationId: string; category: RateLimitCategory; limit: number; windowSeconds: number };

function fakeStore(decision: RateLimitDecision): RateLimitStore & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    tryAcquire: async (organisationId, category, options) => {
      calls.push({ organisationId, category, limit: options.limit, windowSeconds: options.windowSeconds });
      return decision;
    },
  };
}

function contextFor(cls: new () => object, method: string): { context: ExecutionContext; headers: Record<string, string>; request: AuthenticatedRequest } {
  const headers: Record<string, string> = {};
  const request = { caller: { organisationId: 'org-1', environment: Environment.Test, apiKeyId: 'key-1' } } as AuthenticatedRequest;
  const response = { set: (h: Record<string, string>) => Object.assign(headers, h) };
  const context = {
    getHandler: () => (cls.prototype as Record<string, unknown>)[method],
    getClass: () => cls,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ExecutionContext;
  return { context, headers, request };
}

const policy = (enabled = true) => new RateLimitPolicy({ enabled, scale: 1, windowSeconds: 60 });
const allowed: RateLimitDecision = { allowed: true, limit: 120, remaining: 7, retryAfterSeconds: 0 };

describe('RateLimitGuard', () => {
  it('8: a request takes one permit of its organisation and category, and reports the budget in headers', async () => {
    const store = fakeStore(allowed);
    const { context, headers } = contextFor(Routes, 'write');
    await expect(new RateLimitGuard(new Reflector(), new RateLimiter(store, policy())).canActivate(context)).resolves.toBe(true);
    expect(store.calls).toEqual([{ organisationId: 'org-1', category: RateLimitCategory.Write, limit: 120, windowSeconds: 60 }]);
    expect(headers).toEqual({ 'X-RateLimit-Limit': '120', 'X-RateLimit-Remaining': '7' });
  });

  it('8: the category of the handler overrides the one of its controller', async () => {
    const store = fakeStore(allowed);
    await new RateLimitGuard(new Reflector(), new RateLimiter(store, policy())).canActivate(contextFor(ReadRoutes, 'list').context);
    await new RateLimitGuard(new Reflector(), new RateLimiter(store, policy())).canActivate(contextFor(ReadRoutes, 'patch').context);
    expect(store.calls.map((c) => c.category)).toEqual([RateLimitCategory.Read, RateLimitCategory.Write]);
  });

  it('8: a refused request is 429 TooManyRequests with an integer Retry-After', async () => {
    const store = fakeStore({ allowed: false, limit: 120, remaining: 0, retryAfterSeconds: 17 });
    const guard = new RateLimitGuard(new Reflector(), new RateLimiter(store, policy()));
    const error = await guard.canActivate(contextFor(Routes, 'write').context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(ErrorCode.TooManyRequests);
    expect((error as DomainError).headers).toMatchObject({ 'Retry-After': '17', 'X-RateLimit-Remaining': '0' });
  });

  it('8: routes without a category, and every route with RATE_LIMIT_ENABLED=false, take no permit', async () => {
    const store = fakeStore(allowed);
    await expect(new RateLimitGuard(new Reflector(), new RateLimiter(store, policy())).canActivate(contextFor(Routes, 'unlimited').context)).resolves.toBe(true);
    await expect(new RateLimitGuard(new Reflector(), new RateLimiter(store, policy(false))).canActivate(contextFor(Routes, 'write').context)).resolves.toBe(true);
    expect(store.calls).toEqual([]);
  });

  describe('@OverlapRateLimit: the handler joins the permit (withPermit)', () => {
    /** A store that answers only when told to, to show what runs while the permit is being taken. */
    function heldStore(decision: RateLimitDecision) {
      const calls: string[] = [];
      let answer: () => void = () => undefined;
      const store: RateLimitStore = {
        tryAcquire: (organisationId) =>
          new Promise((resolve) => {
            calls.push(organisationId);
            answer = () => resolve(decision);
          }),
      };
      return { store, calls, answer: () => answer() };
    }

    it('8: the handler starts while the permit is taken; its lookup is answered once the permit is taken, with the budget headers', async () => {
      const held = heldStore(allowed);
      const { context, headers, request } = contextFor(OverlappedRoutes, 'render');
      await expect(new RateLimitGuard(new Reflector(), new RateLimiter(held.store, policy())).canActivate(context)).resolves.toBe(true);
      expect(held.calls).toEqual(['org-1']);
      let joined = false;
      const lookup = withPermit(request, Promise.resolve('target')).then((target) => {
        joined = true;
        return target;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(joined).toBe(false);
      held.answer();
      await expect(lookup).resolves.toBe('target');
      expect(headers).toEqual({ 'X-RateLimit-Limit': '120', 'X-RateLimit-Remaining': '7' });
    });

    it('8: a refused permit answers 429 TooManyRequests whatever the lookup found (even a 404)', async () => {
      const held = heldStore({ allowed: false, limit: 300, remaining: 0, retryAfterSeconds: 3 });
      const { context, request } = contextFor(OverlappedRoutes, 'render');
      await new RateLimitGuard(new Reflector(), new RateLimiter(held.store, policy())).canActivate(context);
      const lookup = withPermit(request, Promise.reject(new DomainError(ErrorCode.TemplateNotFound, 'template t not found')));
      held.answer();
      const error = await lookup.catch((e: unknown) => e);
      expect((error as DomainError).code).toBe(ErrorCode.TooManyRequests);
      expect((error as DomainError).headers).toMatchObject({ 'Retry-After': '3' });
    });

    it('8: with the permit taken, the lookup’s own error is the answer', async () => {
      const { context, request } = contextFor(OverlappedRoutes, 'render');
      await new RateLimitGuard(new Reflector(), new RateLimiter(fakeStore(allowed), policy())).canActivate(context);
      const error = await withPermit(request, Promise.reject(new DomainError(ErrorCode.TemplateNotFound, 'template t not found'))).catch((e: unknown) => e);
      expect((error as DomainError).code).toBe(ErrorCode.TemplateNotFound);
    });
  });
});
