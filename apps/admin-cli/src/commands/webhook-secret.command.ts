import { defineCommand, liveOrganisation, ORG_OPTION } from '../cli/command';


export const rotateWebhookSecretCommand = defineCommand({
  name: 'rotate-webhook-secret',
  summary: 'Replace the webhook signing secret; the previous one keeps signing for 24 hours.',
  options: ORG_OPTION,
  prepare: (args) => ({ organisationId: args.uuid('org') }),
  async run({ organisationId }, context) {
    await liveOrganisation(context, organisationId);
    const secrets = await context.database.webhookSecrets.rotate(organisationId, context.now());
    return { organisationId, secret: secrets.active, previousSecretExpiresAt: secrets.previousExpiresAt?.toISOString() ?? null };
  },
});

export const showWebhookSecretCommand = defineCommand({
  name: 'show-webhook-secret',
  summary: "Show the organisation's webhook signing secret(s).",
  options: ORG_OPTION,
  prepare: (args) => ({ organisationId: args.uuid('org') }),
  async run({ organisationId }, context) {
    await liveOrganisation(context, organisationId);
    const secrets = await context.database.webhookSecrets.ensure(organisationId, context.now());
    const previousValid = secrets.previousExpiresAt !== null && secrets.previousExpiresAt > context.now();
    return {
      organisationId,
      secret: secrets.active,
      previousSecret: previousValid ? secrets.previous : null,
      previousSecretExpiresAt: previousValid ? secrets.previousExpiresAt?.toISOString() : null,
    };
  },
});
