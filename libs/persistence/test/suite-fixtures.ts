import type { Logger } from '@docrender/observability';
import type { Database } from '../src/database';
import { provisionOrganisation } from '../src/provisioning/organisation-provisioning';
import type { NewOrganisation } from '../src/repositories/organisation.repository';

/** A logger that drops everything, for the code under test that wants one. */
export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => silentLogger };

/** The terms of a test organisation that says nothing else: the free tier, one page a month, no retention limit, one user. */
const TEST_ORGANISATION_TERMS = { tier: 'free', includedPagesPerMonth: 1, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 } as const;

/** Provisions an organisation named `name`, on TEST_ORGANISATION_TERMS where `terms` does not say otherwise, and returns its id. */
export async function provisionTestOrganisation(database: Database, name: string, terms: Partial<NewOrganisation> = {}, now?: Date): Promise<string> {
  const { organisation } = await database.transaction((r) => provisionOrganisation(r, { ...TEST_ORGANISATION_TERMS, name, ...terms }, now));
  return organisation.id;
}

/** Creates a template named 'T' with no project of the organisation, for records that need one, and returns its id. */
export async function createTestTemplate(database: Database, organisationId: string): Promise<string> {
  return (await database.templates.create({ organisationId, projectId: null, name: 'T', documentNameTemplate: null, updatedBy: 'a' })).id;
}
