import { Body, ConflictException, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { hashPassword, RecordConflictError, WorkspaceInvitationRepository, WorkspaceSessionRepository, Transactions } from '@docrender/persistence';
import { AcceptInvitationDto } from '../organisation/members.dto';
import { SESSION_LIFETIME_MS } from './auth.tokens';
import { SessionCookie } from './session-cookie';
import { sessionDto, type SessionDto } from './session.controller';
import { Public, WorkspaceAuthGuard } from './workspace-auth.guard';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const GONE = 'this invitation is unknown, used, revoked or expired: ask an owner for a new one';

/**
 * The invitee's side of an invitation (issue 35 item 1). No session yet: the invitation's token, 256 random bits that
 * only the link carries, authorises these two routes (and so also stands for the CSRF token on the write).
 */
@ApiTags('session')
@UseGuards(WorkspaceAuthGuard)
@Controller('workspace/api/invitations')
export class InvitationController {
  constructor(
    private readonly transactions: Transactions<'workspaceInvitations' | 'workspaceUsers'>,
    private readonly invitations: WorkspaceInvitationRepository,
    private readonly sessions: WorkspaceSessionRepository,
    private readonly cookie: SessionCookie,
    @Inject(SESSION_LIFETIME_MS) private readonly lifetimeMs: number,
  ) {}

  @Public()
  @Get(':token')
  @ApiOperation({ summary: 'What a pending invitation is for (e-mail address, role, expiry); 404 when it cannot be used', operationId: 'getInvitation' })
  async show(@Param('token') token: string) {
    const found = TOKEN.test(token) ? await this.invitations.findPending(token) : null;
    if (found === null) throw new NotFoundException(GONE);
    return { email: found.email, role: found.role, expiresAt: found.expiresAt.toISOString() };
  }

  @Public()
  @Post(':token/accept')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an invitation: creates the user with the name and password given, signs it in (session cookie) and answers the session',
    operationId: 'acceptInvitation',
  })
  async accept(@Param('token') token: string, @Body() body: AcceptInvitationDto, @Res({ passthrough: true }) res: Response): Promise<SessionDto> {
    // a cheap look-up first, so that guessed tokens cost no scrypt; the claim below decides
    if (!TOKEN.test(token) || (await this.invitations.findPending(token)) === null) throw new NotFoundException(GONE);
    const passwordHash = await hashPassword(body.password);
    let user;
    try {
      user = await this.transactions.run(async (r) => {
        const invitation = await r.workspaceInvitations.claim(token);
        if (invitation === null) return null;
        return r.workspaceUsers.create({ organisationId: invitation.organisationId, email: invitation.email, name: body.name.trim(), role: invitation.role, passwordHash });
      });
    } catch (error) {
      if (error instanceof RecordConflictError) throw new ConflictException(`${error.message}: sign in instead`);
      throw error;
    }
    if (user === null) throw new NotFoundException(GONE);
    const opened = await this.sessions.open(user.id, this.lifetimeMs);
    this.cookie.set(res, opened.token, opened.expiresAt);
    return sessionDto({ user, csrfToken: opened.csrfToken, expiresAt: opened.expiresAt });
  }
}
