import { Environment } from '@docrender/contracts';
import { apiKeySummary } from '@docrender/persistence';
import { UsageError } from '../cli/cli-arguments';
import { defineCommand, defineOrganisationCommand, option, ORG_OPTION } from '../cli/command';

export const createApiKeyCommand = defineOrganisationCommand({
  name: 'create-key',
  summary: 'Create an API key and print it once (only its HMAC is stored).',
  options: {
    env: option.value('test|production', 'environment of the key (required)'),
    label: option.text('a note to recognise the key by'),
  },
  prepare: (args) => ({
    organisationId: args.uuid('org'),
    environment: args.oneOf('env', [Environment.Test, Environment.Production]),
    label: args.optionalString('label') ?? null,
  }),
  async run(input, context) {
    const { record, plaintextKey } = await context.database.apiKeys.create(input.organisationId, input.environment, { label: input.label, now: context.now() });
    return {
      id: record.id,
      organisationId: record.organisationId,
      environment: record.environment,
      key: plaintextKey,
      lookupPrefix: record.lookupPrefix,
      label: record.label,
      notice: 'This is the only time the key is shown; it cannot be recovered.',
    };
  },
});

export const listApiKeysCommand = defineCommand({
  name: 'list-keys',
  summary: "List an organisation's API keys (ids, environments, lookup prefixes; never the keys).",
  options: ORG_OPTION,
  prepare: (args) => ({ organisationId: args.uuid('org') }),
  async run({ organisationId }, context) {
    if (!(await context.database.organisations.findById(organisationId))) throw new UsageError('--org', `no organisation ${organisationId}`);
    const keys = await context.database.apiKeys.listByOrganisation(organisationId);
    return {
      keys: keys.map(apiKeySummary),
    };
  },
});

export const revokeApiKeyCommand = defineCommand({
  name: 'revoke-key',
  summary: 'Revoke an API key (it answers 401 from then on).',
  options: { 'key-id': option.uuid('id printed by create-key or list-keys (required)') },
  prepare: (args) => ({ apiKeyId: args.uuid('key-id') }),
  async run({ apiKeyId }, context) {
    const now = context.now();
    if (!(await context.database.apiKeys.revoke(apiKeyId, now))) {
      const key = await context.database.apiKeys.findById(apiKeyId);
      throw new UsageError('--key-id', key ? `key ${apiKeyId} was already revoked at ${key.revokedAt?.toISOString()}` : `no API key ${apiKeyId}`);
    }
    return { id: apiKeyId, revokedAt: now.toISOString() };
  },
});
