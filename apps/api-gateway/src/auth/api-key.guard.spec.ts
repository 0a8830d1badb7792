import type { ExecutionContext } from '@nestjs/common';
import { DomainError, Environment, ErrorCode } from '@docrender/contracts';
import type { ApiKeyRepository, AuthenticatedApiKey } from '@docrender/persistence';
import { ApiKeyGuard } from './api-key.guard';
import type { AuthenticatedRequest } from './caller';

const KEY = 'service_test_0123456789abcdefghij';

function run(authorization: string | undefined, known: AuthenticatedApiKey | null) {
  const seen: string[] = [];
  const repository = {
    authenticate: async (key: string) => {
      seen.push(key);
      return known;
    },
  } as unknown as ApiKeyRepository;
  const request = { headers: authorization === undefined ? {} : { authorization } } as AuthenticatedRequest;
  const context = { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
  return { result: new ApiKeyGuard(repository).canActivate(context), request, seen };
}

async function codeOf(promise: Promise<boolean>): Promise<ErrorCode> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error.code;
}

describe('ApiKeyGuard', () => {
  it('5.1: a valid key attaches the caller with the environment of its prefix', async () => {
    const { result, request, seen } = run(`Bearer ${KEY}`, { apiKeyId: 'k', organisationId: 'o', environment: Environment.Test, organisationDeleted: false });
    await expect(result).resolves.toBe(true);
    expect(seen).toEqual([KEY]);
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
    const deleted = { apiKeyId: 'k', organisationId: 'o', environment: Environment.Production, organisationDeleted: true };
    await expect(codeOf(run(`Bearer ${KEY}`, deleted).result)).resolves.toBe(ErrorCode.NotAuthenticated);
  });
});
