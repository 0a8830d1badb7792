import type { Environment } from '@docrender/contracts';
import type { Request } from 'express';

/** Who is calling: the organisation and environment the bearer key stands for (spec part 5). */
export type Caller = {
  organisationId: string;
  /** Decided by the key's prefix alone (spec part 1). */
  environment: Environment;
  apiKeyId: string;
};

/** The request as the guards see it: ApiKeyGuard sets `caller` once the key is authenticated. */
export type AuthenticatedRequest = Request & { caller?: Caller };

/** The caller ApiKeyGuard attached; throws when a handler or guard runs without ApiKeyGuard before it (a wiring bug). */
export function callerOf(request: AuthenticatedRequest): Caller {
  if (!request.caller) throw new Error('no authenticated caller on the request: put ApiKeyGuard first in @UseGuards');
  return request.caller;
}
