import { Module } from '@nestjs/common';
import { ApiKeyRepository, WebhookSecretRepository, WorkspaceInvitationRepository, WorkspaceUserRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { MembersController } from './members.controller';
import { OrganisationController } from './organisation.controller';

/** The organisation's API keys and webhook secrets, its members and their invitations. */
@Module({
  imports: [
    PersistenceModule.forFeature({
      repositories: [ApiKeyRepository, WebhookSecretRepository, WorkspaceUserRepository, WorkspaceInvitationRepository],
      transactions: ['workspaceUsers'],
    }),
  ],
  controllers: [OrganisationController, MembersController],
})
export class OrganisationModule {}
