import { defineOrganisationCommand } from '../cli/command';

export const rotateWebhookSecretCommand = defineOrganisationCommand({
  name: 'rotate-webhook-secret',
  summary: 'Replace the webhook signing secret; the previous one keeps signing for 24 hours.',
  async run({ organisationId }, context) {
    const secrets = await context.database.webhookSecrets.rotate(organisationId, context.now());
    return { organisationId, secret: secrets.active, previousSecretExpiresAt: secrets.previousExpiresAt?.toISOString() ?? null };
  },
});

export const showWebhookSecretCommand = defineOrganisationCommand({
  name: 'show-webhook-secret',
  summary: "Show the organisation's webhook signing secret(s).",
  async run({ organisationId }, context) {
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
