import { Global, Module } from '@nestjs/common';
import { Settings, workspaceSettings } from '@docrender/config';
import { WorkspaceInvitationRepository, WorkspaceSessionRepository, WorkspaceUserRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { SESSION_LIFETIME_MS, WORKSPACE_SESSIONS } from './auth.tokens';
import { InvitationController } from './invitation.controller';
import { SessionController } from './session.controller';
import { SessionCookie } from './session-cookie';
import { SignInLimiter } from './sign-in-limiter';
import { WorkspaceAuthGuard } from './workspace-auth.guard';

/**
 * Signing in, sessions and accepting invitations. Global, so that any feature module's `@UseGuards(WorkspaceAuthGuard)`
 * resolves the guard's dependencies: the guard, the session cookie and WORKSPACE_SESSIONS (the sessions' `find`), not
 * the repositories this module declares.
 */
@Global()
@Module({
  imports: [
    PersistenceModule.forFeature({
      repositories: [WorkspaceSessionRepository, WorkspaceUserRepository, WorkspaceInvitationRepository],
      transactions: ['workspaceInvitations', 'workspaceUsers'],
    }),
  ],
  controllers: [SessionController, InvitationController],
  providers: [
    WorkspaceAuthGuard,
    { provide: WORKSPACE_SESSIONS, useExisting: WorkspaceSessionRepository },
    { provide: SessionCookie, useFactory: (s: Settings) => new SessionCookie(s.get(workspaceSettings).secureCookies), inject: [Settings] },
    { provide: SignInLimiter, useFactory: (s: Settings) => new SignInLimiter(s.get(workspaceSettings).signInAttempts), inject: [Settings] },
    { provide: SESSION_LIFETIME_MS, useFactory: (s: Settings) => s.get(workspaceSettings).sessionHours * 3600 * 1000, inject: [Settings] },
  ],
  exports: [WorkspaceAuthGuard, WORKSPACE_SESSIONS, SessionCookie],
})
export class WorkspaceAuthModule {}
