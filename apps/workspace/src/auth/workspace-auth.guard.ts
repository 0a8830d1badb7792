import { CanActivate, createParamDecorator, ExecutionContext, ForbiddenException, Inject, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { roleAllows, type WorkspaceRole, type WorkspaceSession } from '@docrender/persistence';
import { WORKSPACE_SESSIONS, type SessionLookup } from './auth.tokens';
import { SessionCookie } from './session-cookie';

const PUBLIC = 'workspace:public';
const ROLE = 'workspace:role';

/** A route anyone may call (signing in). */
export const Public = (): MethodDecorator => SetMetadata(PUBLIC, true);
/** The least role a route needs; routes without it need a viewer (any signed-in user). */
export const Requires = (role: WorkspaceRole): MethodDecorator => SetMetadata(ROLE, role);

type SessionRequest = Request & { workspaceSession?: WorkspaceSession };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameToken(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Every workspace route but sign-in: a live session (cookie) or 401; every write (any method but GET/HEAD/OPTIONS)
 * also carries the session's CSRF token in X-CSRF-Token or 403; and the route's role (owner ⊃ editor ⊃ viewer) or 403.
 */
@Injectable()
export class WorkspaceAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(WORKSPACE_SESSIONS) private readonly sessions: SessionLookup,
    private readonly cookie: SessionCookie,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.get<boolean>(PUBLIC, context.getHandler())) return true;
    const req = context.switchToHttp().getRequest<SessionRequest>();
    const token = this.cookie.read(req);
    const session = token === null ? null : await this.sessions.find(token);
    if (session === null) throw new UnauthorizedException('sign in first');
    if (!SAFE_METHODS.has(req.method)) {
      const sent = req.headers['x-csrf-token'];
      if (typeof sent !== 'string' || !sameToken(sent, session.csrfToken)) throw new ForbiddenException('missing or wrong X-CSRF-Token');
    }
    const needed = this.reflector.get<WorkspaceRole | undefined>(ROLE, context.getHandler()) ?? 'viewer';
    if (!roleAllows(session.user.role, needed)) throw new ForbiddenException(`this needs the ${needed} role; you are ${session.user.role}`);
    req.workspaceSession = session;
    return true;
  }
}

/** The signed-in session of the request (set by WorkspaceAuthGuard). */
export const CurrentSession = createParamDecorator((_: unknown, context: ExecutionContext): WorkspaceSession => {
  const session = context.switchToHttp().getRequest<SessionRequest>().workspaceSession;
  if (session === undefined) throw new UnauthorizedException('sign in first');
  return session;
});
