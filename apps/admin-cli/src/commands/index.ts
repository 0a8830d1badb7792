import type { CommandDefinition } from '../cli/command';
import { createApiKeyCommand, listApiKeysCommand, revokeApiKeyCommand } from './api-key.command';
import { addAssetCommand, removeAssetCommand } from './asset.command';
import { addFontCommand } from './font.command';
import { migrateCommand } from './migrate.command';
import { createOrganisationCommand, deleteOrganisationCommand, resumeOrganisationCommand, suspendOrganisationCommand } from './organisation.command';
import { createProjectCommand } from './project.command';
import { purgePdfsCommand } from './retention.command';
import { seedCommand } from './seed.command';
import { importTemplateCommand, publishVersionCommand } from './template.command';
import { rotateWebhookSecretCommand, showWebhookSecretCommand } from './webhook-secret.command';
import { createWorkspaceUserCommand } from './workspace-user.command';

/** Every command, in the order the help lists them. */
export const COMMANDS: readonly CommandDefinition[] = [
  createOrganisationCommand,
  deleteOrganisationCommand,
  suspendOrganisationCommand,
  resumeOrganisationCommand,
  createApiKeyCommand,
  listApiKeysCommand,
  revokeApiKeyCommand,
  rotateWebhookSecretCommand,
  showWebhookSecretCommand,
  createWorkspaceUserCommand,
  createProjectCommand,
  importTemplateCommand,
  publishVersionCommand,
  addFontCommand,
  addAssetCommand,
  removeAssetCommand,
  purgePdfsCommand,
  seedCommand,
  migrateCommand,
];
