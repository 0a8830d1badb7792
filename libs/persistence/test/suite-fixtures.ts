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

/**
 * Provisions an organisation as provisionTestOrganisation does, with a template named 'T' in no project for the records
 * that need one (render jobs, documents), and returns both ids.
 */
export async function provisionTestOrganisationWithTemplate(
  database: Database,
  name: string,
  terms: Partial<NewOrganisation> = {},
  now?: Date,
): Promise<{ organisationId: string; templateId: string }> {
  const organisationId = await provisionTestOrganisation(database, name, terms, now);
  const template = await database.templates.create({ organisationId, projectId: null, name: 'T', documentNameTemplate: null, updatedBy: 'a' });
  return { organisationId, templateId: template.id };
}
