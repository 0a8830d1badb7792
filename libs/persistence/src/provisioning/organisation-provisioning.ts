import type { Repositories } from '../database';
import type { NewOrganisation, OrganisationRecord } from '../repositories/organisation.repository';

/**
 * Creates an organisation ready to use: the organisation row, its first webhook signing secret and the usage row of
 * its current billing period. Call it inside `Database.transaction` so the three appear together.
 */
export async function provisionOrganisation(
  repositories: Repositories,
  input: NewOrganisation,
  now: Date = new Date(),
): Promise<{ organisation: OrganisationRecord; webhookSecret: string }> {
  const organisation = await repositories.organisations.create(input, now);
  const secrets = await repositories.webhookSecrets.ensure(organisation.id, now);
  await repositories.usage.ensureCurrentPeriod(organisation.id, now);
  return { organisation, webhookSecret: secrets.active };
}
