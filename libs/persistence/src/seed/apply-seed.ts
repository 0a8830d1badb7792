import type { Environment } from '@docrender/contracts';
import { checkTemplateVersion, templateErrorLines } from '@docrender/template-dsl/checks';
import type { Database, Repositories } from '../database';
import { provisionOrganisation } from '../provisioning/organisation-provisioning';
import type { OrganisationRecord } from '../repositories/organisation.repository';
import type { TemplateVersionRecord, VersionContent } from '../repositories/template-version.repository';
import { isFileReference, parseSeedFile, resolveJson, SeedFileError, type SeedFile, type SeedOrganisation, type SeedTemplate, type SeedVersion } from './seed-file';

/** Who seeded versions and templates are recorded as having written and published. */
export const SEED_AUTHOR = 'seed';

export type SeededVersion = { id: string; versionNumber: number; published: boolean };
export type SeededTemplate = { id: string; name: string; versions: SeededVersion[] };
export type SeededProject = { id: string; name: string; templates: SeededTemplate[] };
export type SeededApiKey = { id: string; environment: Environment; lookupPrefix: string; revoked: boolean };
export type SeededOrganisation = {
  id: string;
  name: string;
  apiKeys: SeededApiKey[];
  projects: SeededProject[];
  /** Templates outside any project. */
  templates: SeededTemplate[];
};
/** The ids of everything the seed file describes (never a key or secret). */
export type SeedResult = { organisations: SeededOrganisation[] };

const DEFAULTS = { tier: 'free', includedRendersPerMonth: 100, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 } as const;

export type ApplySeedOptions = {
  now?: Date;
  /**
   * Overwrite the content of a published version when the file differs (development seeds that follow edited
   * example files). Default false: a published version never changes and a difference is an error.
   */
  allowPublishedChanges?: boolean;
};

/**
 * Makes the database hold what the seed file describes, idempotently: applying the same file twice leaves the same
 * state and returns the same ids. Everything happens in one transaction (all or nothing).
 *
 * Matching: organisations by id, else by name among live ones; projects by id, else by name in the organisation;
 * templates by id, else by name in the project; versions by position (entry i is versionNumber i + 1).
 * Fields present in the file are applied; absent ones keep their stored value (defaults apply on creation).
 * A published version never changes: different content for it is an error (add a new version entry instead),
 * unless `allowPublishedChanges`. API keys are stored hashed (under the database's API_KEY_PEPPER); a key already stored stays as it is (a revoked key
 * stays revoked).
 *
 * `seed` is parsed JSON (validated here, errors name the bad entry); file references are resolved against `baseDir`.
 */
export async function applySeed(database: Database, seed: unknown, baseDir: string, options: ApplySeedOptions = {}): Promise<SeedResult> {
  const file: SeedFile = parseSeedFile(seed);
  const contents = await resolveVersionContents(file, baseDir);
  const context: SeedContext = { contents, now: options.now ?? new Date(), allowPublishedChanges: options.allowPublishedChanges ?? false };
  return database.transaction(async (repositories) => {
    const organisations: SeededOrganisation[] = [];
    for (const [i, org] of file.organisations.entries()) {
      organisations.push(await applyOrganisation(repositories, org, `organisations[${i}]`, context));
    }
    return { organisations };
  });
}

type SeedContext = { contents: Contents; now: Date; allowPublishedChanges: boolean };

/** Version contents by the path of their entry, read (and file references resolved) before the transaction starts. */
type Contents = Map<string, VersionContent>;

async function resolveVersionContents(file: SeedFile, baseDir: string): Promise<Contents> {
  const contents: Contents = new Map();
  for (const [i, org] of file.organisations.entries()) {
    const templates: [string, SeedTemplate][] = [
      ...(org.projects ?? []).flatMap((p, j) => (p.templates ?? []).map((t, k) => [`organisations[${i}].projects[${j}].templates[${k}]`, t] as [string, SeedTemplate])),
      ...(org.templates ?? []).map((t, k) => [`organisations[${i}].templates[${k}]`, t] as [string, SeedTemplate]),
    ];
    for (const [at, template] of templates) {
      for (const [v, version] of (template.versions ?? []).entries()) {
        const vat = `${at}.versions[${v}]`;
        contents.set(vat, await versionContent(version, baseDir, vat));
      }
    }
  }
  return contents;
}

async function versionContent(version: SeedVersion, baseDir: string, at: string): Promise<VersionContent> {
  const template = await resolveJson(version.template, baseDir, `${at}.template`);
  const sample = version.sampleData ? await resolveJson(version.sampleData, baseDir, `${at}.sampleData`) : { data: {}, i18n: {} };
  if (!('data' in sample)) throw new SeedFileError(`${at}.sampleData`, 'must be an object with a "data" member (and "i18n")');
  // `data` and `i18n` may each be a file reference of their own.
  const member = async (name: 'data' | 'i18n', value: unknown): Promise<unknown> =>
    isFileReference(value) ? resolveJson(value, baseDir, `${at}.sampleData.${name}`) : value;
  const sampleData = { ...sample, data: await member('data', sample.data), i18n: await member('i18n', sample.i18n ?? {}) };
  const translations = version.translations ? await resolveJson(version.translations, baseDir, `${at}.translations`) : null;
  // The render's own check: a version it would refuse is never stored (nor published).
  const check = checkTemplateVersion({ template, translations, documentNameTemplate: version.documentNameTemplate ?? null });
  if (!check.ok) throw new SeedFileError(at, `the template version is invalid: ${templateErrorLines(check.errors).join('; ')}`);
  return {
    templateJson: JSON.stringify(template),
    sampleData: JSON.stringify(sampleData),
    translations: translations === null ? null : JSON.stringify(translations),
    documentNameTemplate: version.documentNameTemplate ?? null,
  };
}

async function applyOrganisation(
  repositories: Repositories,
  seed: SeedOrganisation,
  at: string,
  context: SeedContext,
): Promise<SeededOrganisation> {
  const { now } = context;
  const organisation = await upsertOrganisation(repositories, seed, at, now);
  const organisationId = organisation.id;

  if (seed.pagesUsedThisPeriod !== undefined) await repositories.usage.setPagesUsed(organisationId, seed.pagesUsedThisPeriod, now);
  if (seed.webhookSecret !== undefined) await repositories.webhookSecrets.setActive(organisationId, seed.webhookSecret, now);

  const apiKeys: SeededApiKey[] = [];
  for (const [i, key] of (seed.apiKeys ?? []).entries()) {
    try {
      const record = await repositories.apiKeys.importKey(organisationId, key, { label: 'seed', now });
      apiKeys.push({ id: record.id, environment: record.environment, lookupPrefix: record.lookupPrefix, revoked: record.revokedAt !== null });
    } catch (error) {
      throw new SeedFileError(`${at}.apiKeys[${i}]`, (error as Error).message);
    }
  }

  const projects: SeededProject[] = [];
  for (const [j, projectSeed] of (seed.projects ?? []).entries()) {
    const pat = `${at}.projects[${j}]`;
    const project = await upsertProject(repositories, organisationId, projectSeed, pat, now);
    const templates: SeededTemplate[] = [];
    for (const [k, t] of (projectSeed.templates ?? []).entries()) {
      templates.push(await applyTemplate(repositories, organisationId, project.id, t, `${pat}.templates[${k}]`, context));
    }
    projects.push({ id: project.id, name: project.name, templates });
  }

  const templates: SeededTemplate[] = [];
  for (const [k, t] of (seed.templates ?? []).entries()) {
    templates.push(await applyTemplate(repositories, organisationId, null, t, `${at}.templates[${k}]`, context));
  }

  return { id: organisationId, name: organisation.name, apiKeys, projects, templates };
}

async function upsertOrganisation(repositories: Repositories, seed: SeedOrganisation, at: string, now: Date): Promise<OrganisationRecord> {
  const changes = {
    name: seed.name,
    tier: seed.tier,
    includedPagesPerMonth: seed.includedRendersPerMonth,
    includedTokensPerMonth: seed.includedTokensPerMonth,
    retentionDays: seed.retentionDays,
    userCount: seed.userCount,
  };
  let existing: OrganisationRecord | null = null;
  if (seed.id !== undefined) {
    existing = await repositories.organisations.findById(seed.id);
    if (existing?.deletedAt) throw new SeedFileError(`${at}.id`, `organisation ${seed.id} was deleted`);
  } else {
    const named = await repositories.organisations.findLiveByName(seed.name);
    if (named.length > 1) throw new SeedFileError(`${at}.name`, `${named.length} organisations are named '${seed.name}'; give an id`);
    existing = named[0] ?? null;
  }
  if (existing) {
    const differs = Object.entries(changes).some(([k, v]) => v !== undefined && existing[k as keyof OrganisationRecord] !== v);
    if (!differs) return existing;
    const updated = await repositories.organisations.update(existing.id, changes, now);
    if (!updated) throw new SeedFileError(at, `organisation ${existing.id} vanished`);
    return updated;
  }
  const { organisation } = await provisionOrganisation(
    repositories,
    {
      id: seed.id,
      name: seed.name,
      tier: seed.tier ?? DEFAULTS.tier,
      includedPagesPerMonth: seed.includedRendersPerMonth ?? DEFAULTS.includedRendersPerMonth,
      includedTokensPerMonth: seed.includedTokensPerMonth ?? DEFAULTS.includedTokensPerMonth,
      retentionDays: seed.retentionDays === undefined ? DEFAULTS.retentionDays : seed.retentionDays,
      userCount: seed.userCount ?? DEFAULTS.userCount,
      webhookSecret: seed.webhookSecret,
    },
    now,
  );
  return organisation;
}

async function upsertProject(
  repositories: Repositories,
  organisationId: string,
  seed: { id?: string; name: string },
  at: string,
  now: Date,
): Promise<{ id: string; name: string }> {
  if (seed.id !== undefined) {
    const existing = await repositories.projects.findById(organisationId, seed.id);
    if (existing) {
      if (existing.name === seed.name) return existing;
      const renamed = await repositories.projects.rename(organisationId, seed.id, seed.name, now);
      if (!renamed) throw new SeedFileError(at, `project ${seed.id} vanished`);
      return renamed;
    }
    return repositories.projects.create({ id: seed.id, organisationId, name: seed.name }, now).catch((error: Error) => {
      throw new SeedFileError(`${at}.id`, `cannot be used (${error.message})`);
    });
  }
  const named = await repositories.projects.findByName(organisationId, seed.name);
  if (named.length > 1) throw new SeedFileError(`${at}.name`, `${named.length} projects are named '${seed.name}'; give an id`);
  return named[0] ?? repositories.projects.create({ organisationId, name: seed.name }, now);
}

async function applyTemplate(
  repositories: Repositories,
  organisationId: string,
  projectId: string | null,
  seed: SeedTemplate,
  at: string,
  context: SeedContext,
): Promise<SeededTemplate> {
  const { contents, now } = context;
  let templateId: string;
  let existing = null;
  if (seed.id !== undefined) {
    existing = await repositories.templates.findById(organisationId, seed.id);
  } else {
    const named = await repositories.templates.findByName(organisationId, projectId, seed.name);
    if (named.length > 1) throw new SeedFileError(`${at}.name`, `${named.length} templates are named '${seed.name}' here; give an id`);
    existing = named[0] ?? null;
  }
  if (existing) {
    templateId = existing.id;
    const changes = { name: seed.name, projectId, documentNameTemplate: seed.documentNameTemplate };
    const differs =
      existing.name !== seed.name ||
      existing.projectId !== projectId ||
      (seed.documentNameTemplate !== undefined && existing.documentNameTemplate !== seed.documentNameTemplate);
    if (differs) await repositories.templates.update(organisationId, templateId, changes, SEED_AUTHOR, now);
  } else {
    const created = await repositories.templates
      .create({ id: seed.id, organisationId, projectId, name: seed.name, documentNameTemplate: seed.documentNameTemplate ?? null, updatedBy: SEED_AUTHOR }, now)
      .catch((error: Error) => {
        throw new SeedFileError(`${at}.id`, `cannot be used (${error.message})`);
      });
    templateId = created.id;
  }

  const versions: SeededVersion[] = [];
  for (const [v, version] of (seed.versions ?? []).entries()) {
    const vat = `${at}.versions[${v}]`;
    const content = contents.get(vat);
    if (!content) throw new Error(`${vat}: content was not resolved`);
    const record = await applyVersion(repositories, templateId, v + 1, content, version.published ?? false, vat, context);
    versions.push({ id: record.id, versionNumber: record.versionNumber, published: record.publishedAt !== null });
  }
  return { id: templateId, name: seed.name, versions };
}

function sameContent(version: TemplateVersionRecord, content: VersionContent): boolean {
  return (
    version.templateJson === content.templateJson &&
    version.sampleData === content.sampleData &&
    version.translations === content.translations &&
    version.documentNameTemplate === content.documentNameTemplate
  );
}

async function applyVersion(
  repositories: Repositories,
  templateId: string,
  versionNumber: number,
  content: VersionContent,
  published: boolean,
  at: string,
  context: SeedContext,
): Promise<TemplateVersionRecord> {
  const { now } = context;
  const versions = repositories.templateVersions;
  const existing = await versions.findByNumber(templateId, versionNumber);
  if (!existing) {
    const created = await versions.addVersion(templateId, content, { author: SEED_AUTHOR, publish: published, now });
    if (created.versionNumber !== versionNumber) {
      throw new SeedFileError(at, `became version ${created.versionNumber} instead of ${versionNumber}`);
    }
    return created;
  }
  if (existing.publishedAt !== null) {
    if (!published) throw new SeedFileError(`${at}.published`, `version ${versionNumber} is already published and cannot become a draft`);
    if (sameContent(existing, content)) return existing;
    if (context.allowPublishedChanges) return versions.replacePublishedContent(templateId, versionNumber, content, now);
    throw new SeedFileError(at, `version ${versionNumber} is published and differs from the file; published versions never change (add a new version entry)`);
  }
  const current = sameContent(existing, content) ? existing : await versions.updateDraft(templateId, versionNumber, content, now);
  return published ? versions.publish(templateId, versionNumber, SEED_AUTHOR, now) : current;
}
