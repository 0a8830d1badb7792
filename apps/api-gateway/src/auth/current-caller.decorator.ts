import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { callerOf, type AuthenticatedRequest } from './caller';

/** The authenticated caller of the request (needs ApiKeyGuard on the route): `@CurrentCaller() caller: Caller`. */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  callerOf(context.switchToHttp().getRequest<AuthenticatedRequest>()),
);
