import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, Environment, ErrorCode, RateLimitCategory } from '@docrender/contracts';
import type { ApiKeyRepository, AuthenticatedApiKey } from '@docrender/persistence';
import { RateLimit } from '../http/route-category';
import { ApiKeyUseRecorder } from './api-key-use.recorder';
import { ApiKeyGuard } from './api-key.guard';
import type { AuthenticatedRequest } from './caller';

const KEY = 'service_test_0123456789abcdefghij';

class Routes {
  @RateLimit(RateLimitCategory.Render) render(): void {}
  @RateLimit(RateLimitCategory.Write) write(): void {}
  @RateLimit(RateLimitCategory.Read) read(): void {}
}

function run(authorization: string | undefined, known: AuthenticatedApiKey | null, route: keyof Routes = 'read', method = route === 'read' ? 'GET' : 'POST') {
  const seen: string[] = [];
  const repository = {
    authenticate: async (key: string) => {
      seen.push(key);
      return known;
    },
  } as unknown as ApiKeyRepository;
  const request = { method, headers: authorization === undefined ? {} : { authorization } } as AuthenticatedRequest;
  const context = { switchToHttp: () => ({ getRequest: () => request }), getHandler: () => Routes.prototype[route], getClass: () => Routes } as unknown as ExecutionContext;
  const used: string[] = [];
  const uses = { used: (id: string) => (used.push(id), null) } as unknown as ApiKeyUseRecorder;
  return { result: new ApiKeyGuard(repository, new Reflector(), uses).canActivate(context), request, seen, used };
}

async function codeOf(promise: Promise<boolean>): Promise<ErrorCode> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error.code;
}

describe('ApiKeyGuard', () => {
  it('5.1: a valid key attaches the caller with the environment of its prefix', async () => {
    const { result, request, seen, used } = run(`Bearer ${KEY}`, { apiKeyId: 'k', organisationId: 'o', environment: Environment.Test, organisationDeleted: false, organisationSuspended: false });
    await expect(result).resolves.toBe(true);
    expect(seen).toEqual([KEY]);
    expect(used).toEqual(['k']); // issue 35 item 4: a use is noted for the key's last use
    expect(request.caller).toEqual({ apiKeyId: 'k', organisationId: 'o', environment: Environment.Test });
  });

  it('5.3: a missing or malformed header is 401 Unauthorized without a lookup', async () => {
    for (const header of [undefined, 'Basic abc', 'Bearer']) {
      const { result, seen } = run(header, null);
      await expect(codeOf(result)).resolves.toBe(ErrorCode.Unauthorized);
      expect(seen).toEqual([]);
    }
  });

  it('5.3: an unknown or revoked key is 401 Unauthorized', async () => {
    await expect(codeOf(run(`Bearer ${KEY}`, null).result)).resolves.toBe(ErrorCode.Unauthorized);
  });

  it('5.3: a key whose organisation is gone is 401 NotAuthenticated', async () => {
    const deleted = { apiKeyId: 'k', organisationId: 'o', environment: Environment.Production, organisationDeleted: true, organisationSuspended: false };
    const { result, used } = run(`Bearer ${KEY}`, deleted);
    await expect(codeOf(result)).resolves.toBe(ErrorCode.NotAuthenticated);
    expect(used).toEqual([]);
  });

  it('5.4: a suspended organisation may read, but rendering and writes are 403 Forbidden', async () => {
    const suspended = { apiKeyId: 'k', organisationId: 'o', environment: Environment.Production, organisationDeleted: false, organisationSuspended: true };
    await expect(run(`Bearer ${KEY}`, suspended, 'read').result).resolves.toBe(true);
    await expect(codeOf(run(`Bearer ${KEY}`, suspended, 'render').result)).resolves.toBe(ErrorCode.Forbidden);
    await expect(codeOf(run(`Bearer ${KEY}`, suspended, 'write').result)).resolves.toBe(ErrorCode.Forbidden);
    // A job status poll counts as a render request (spec 8) but is a read: a suspended organisation may still poll.
    await expect(run(`Bearer ${KEY}`, suspended, 'render', 'GET').result).resolves.toBe(true);
  });
});
