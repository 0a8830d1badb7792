import type { Repositories } from '../database';
import type { NewOrganisation, OrganisationRecord } from '../repositories/organisation.repository';

/**
 * Creates an organisation ready to use: the organisation row, its first webhook signing secret (`webhookSecret`, or
 * a random one) and the usage row of its current billing period. Call it inside `Database.transaction` so the three
 * appear together.
 */
export async function provisionOrganisation(
  repositories: Repositories,
  input: NewOrganisation & { webhookSecret?: string },
  now: Date = new Date(),
): Promise<{ organisation: OrganisationRecord; webhookSecret: string }> {
  const { webhookSecret, ...organisationInput } = input;
  const organisation = await repositories.organisations.create(organisationInput, now);
  const secrets =
    webhookSecret === undefined
      ? await repositories.webhookSecrets.ensure(organisation.id, now)
      : await repositories.webhookSecrets.setActive(organisation.id, webhookSecret, now);
  await repositories.usage.ensureCurrentPeriod(organisation.id, now);
  return { organisation, webhookSecret: secrets.active };
}
