import { Body, Controller, Delete, Get, HttpCode, HttpException, HttpStatus, Inject, Post, Req, Res, UnauthorizedException, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import type { Request, Response } from 'express';
import { UNKNOWN_USER_PASSWORD_HASH, verifyPassword, WorkspaceSessionRepository, WorkspaceUserRepository, type WorkspaceSession } from '@docrender/persistence';
import { SessionCookie } from './session-cookie';
import { SignInLimiter } from './sign-in-limiter';
import { CurrentSession, Public, WorkspaceAuthGuard } from './workspace-auth.guard';
import { SESSION_LIFETIME_MS } from './auth.tokens';

export class SignInDto {
  @ApiProperty() @IsString() @MaxLength(320) email!: string;
  @ApiProperty() @IsString() @MaxLength(1024) password!: string;
}

export class SessionUserDto {
  @ApiProperty() id!: string;
  @ApiProperty() organisationId!: string;
  @ApiProperty() email!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['owner', 'editor', 'viewer'] }) role!: string;
}

export class SessionDto {
  @ApiProperty({ type: SessionUserDto }) user!: SessionUserDto;
  @ApiProperty({ description: 'Send it in the X-CSRF-Token header of every write.' }) csrfToken!: string;
  @ApiProperty() expiresAt!: string;
}

export function sessionDto(session: Pick<WorkspaceSession, 'user' | 'csrfToken' | 'expiresAt'>): SessionDto {
  const { id, organisationId, email, name, role } = session.user;
  return { user: { id, organisationId, email, name, role }, csrfToken: session.csrfToken, expiresAt: session.expiresAt.toISOString() };
}

/** Signing in and out (issue 35 item 1). */
@ApiTags('session')
@UseGuards(WorkspaceAuthGuard)
@Controller('workspace/api/session')
export class SessionController {
  constructor(
    private readonly users: WorkspaceUserRepository,
    private readonly sessions: WorkspaceSessionRepository,
    private readonly cookie: SessionCookie,
    private readonly limiter: SignInLimiter,
    @Inject(SESSION_LIFETIME_MS) private readonly lifetimeMs: number,
  ) {}

  @Public()
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in: sets the session cookie and answers the CSRF token (429 after too many failures)', operationId: 'signIn' })
  async signIn(@Body() body: SignInDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SessionDto> {
    const client = req.socket.remoteAddress ?? 'unknown';
    const wait = this.limiter.retryAfterSeconds(body.email, client);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      throw new HttpException(`too many failed sign-ins; try again in ${wait} s`, HttpStatus.TOO_MANY_REQUESTS);
    }
    const found = await this.users.findForSignIn(body.email);
    // an unknown address costs the same scrypt as a known one
    const ok = await verifyPassword(body.password, found?.passwordHash ?? UNKNOWN_USER_PASSWORD_HASH);
    if (!found || !ok) {
      this.limiter.recordFailure(body.email, client);
      throw new UnauthorizedException('wrong e-mail address or password');
    }
    this.limiter.recordSuccess(body.email);
    const opened = await this.sessions.open(found.user.id, this.lifetimeMs);
    this.cookie.set(res, opened.token, opened.expiresAt);
    return sessionDto({ user: found.user, csrfToken: opened.csrfToken, expiresAt: opened.expiresAt });
  }

  @Get()
  @ApiOperation({ summary: 'The signed-in user and the CSRF token of the session', operationId: 'getSession' })
  current(@CurrentSession() session: WorkspaceSession): SessionDto {
    return sessionDto(session);
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out: the session is revoked and its cookie cleared', operationId: 'signOut' })
  async signOut(@CurrentSession() session: WorkspaceSession, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.sessions.revoke(session.sessionId);
    this.cookie.clear(res);
  }
}
