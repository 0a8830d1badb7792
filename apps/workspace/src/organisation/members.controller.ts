import { Body, ConflictException, Controller, Delete, Get, HttpCode, NotFoundException, Param, ParseUUIDPipe, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RecordConflictError, Transactions, WorkspaceInvitationRepository, WorkspaceUserRepository, type WorkspaceInvitationRecord, type WorkspaceSession, type WorkspaceUserRecord } from '@docrender/persistence';
import { CurrentSession, Requires, WorkspaceAuthGuard } from '../auth/workspace-auth.guard';
import { ChangeRoleDto, InviteDto } from './members.dto';

const memberJson = (u: WorkspaceUserRecord) => ({ id: u.id, email: u.email, name: u.name, role: u.role, createdAt: u.createdAt.toISOString() });
const invitationJson = (i: WorkspaceInvitationRecord) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  invitedBy: i.invitedBy,
  createdAt: i.createdAt.toISOString(),
  expiresAt: i.expiresAt.toISOString(),
});

/** A change to a member, made, or refused: 404 for a user not of the session's organisation, 409 when it would leave no owner. */
function madeChange<T>(result: T | 'not-found' | 'last-owner', userId: string): T {
  if (result === 'not-found') throw new NotFoundException(`member ${userId} not found`);
  if (result === 'last-owner') throw new ConflictException('the organisation needs an owner: make someone else owner first');
  return result;
}

/**
 * The organisation's people (issue 35 item 1): its members and their roles, and invitations (the link shown once,
 * only the token's hash stored, 7 days, single use). Owners only; another organisation's ids answer 404.
 */
@ApiTags('organisation')
@UseGuards(WorkspaceAuthGuard)
@Controller('workspace/api/organisation')
export class MembersController {
  constructor(
    private readonly transactions: Transactions<'workspaceUsers'>,
    private readonly users: WorkspaceUserRepository,
    private readonly invitations: WorkspaceInvitationRepository,
  ) {}

  @Get('members')
  @Requires('owner')
  @ApiOperation({ summary: "The organisation's workspace users and their roles", operationId: 'listMembers' })
  async members(@CurrentSession() s: WorkspaceSession) {
    return { items: (await this.users.listByOrganisation(s.user.organisationId)).map(memberJson) };
  }

  @Patch('members/:userId')
  @Requires('owner')
  @ApiOperation({ summary: "Change a member's role (409 when it would leave no owner)", operationId: 'changeMemberRole' })
  async changeRole(@CurrentSession() s: WorkspaceSession, @Param('userId', ParseUUIDPipe) userId: string, @Body() body: ChangeRoleDto) {
    return memberJson(madeChange(await this.transactions.run((r) => r.workspaceUsers.changeRole(s.user.organisationId, userId, body.role)), userId));
  }

  @Delete('members/:userId')
  @Requires('owner')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member and end its sessions (409 for the last owner)', operationId: 'removeMember' })
  async remove(@CurrentSession() s: WorkspaceSession, @Param('userId', ParseUUIDPipe) userId: string): Promise<void> {
    madeChange(await this.transactions.run((r) => r.workspaceUsers.remove(s.user.organisationId, userId)), userId);
  }

  @Get('invitations')
  @Requires('owner')
  @ApiOperation({ summary: 'Pending invitations (never their links)', operationId: 'listInvitations' })
  async pending(@CurrentSession() s: WorkspaceSession) {
    return { items: (await this.invitations.listPending(s.user.organisationId)).map(invitationJson) };
  }

  @Post('invitations')
  @Requires('owner')
  @ApiOperation({
    summary: 'Invite someone with a role: the answer is the only time the link (with its token) is shown; it works once, for 7 days',
    operationId: 'invite',
  })
  async invite(@CurrentSession() s: WorkspaceSession, @Body() body: InviteDto) {
    try {
      const { record, token } = await this.invitations.create({ organisationId: s.user.organisationId, email: body.email.trim(), role: body.role, invitedBy: s.user.email });
      // In the fragment: the token is not sent to the server when the page loads, nor in a Referer.
      return { ...invitationJson(record), token, link: `/workspace/#/invitation/${token}` };
    } catch (error) {
      if (error instanceof RecordConflictError) throw new ConflictException(error.message);
      throw error;
    }
  }

  @Delete('invitations/:invitationId')
  @Requires('owner')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a pending invitation: its link stops working', operationId: 'revokeInvitation' })
  async revoke(@CurrentSession() s: WorkspaceSession, @Param('invitationId', ParseUUIDPipe) invitationId: string): Promise<void> {
    if (!(await this.invitations.revoke(s.user.organisationId, invitationId))) throw new NotFoundException(`invitation ${invitationId} not found`);
  }
}
