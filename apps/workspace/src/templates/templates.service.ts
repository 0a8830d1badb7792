import { BadRequestException, ConflictException, Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { SortDirection } from '@docrender/contracts';
import {
  RecordConflictError,
  TemplateListingQuery,
  TemplateRepository,
  TemplateVersionRepository,
  Transactions,
  type TemplateRecord,
  type TemplateVersionRecord,
  type VersionContent,
  type WorkspaceUserRecord,
} from '@docrender/persistence';
import { checkTemplateVersion, templateErrorLines } from '@docrender/template-dsl/checks';
import { blankTemplate, ExamplesCatalog } from './examples.catalog';

/** The largest version number PostgreSQL's integer column holds. */
const MAX_VERSION_NUMBER = 2_147_483_647;

/** Who a write is recorded under (spec 2.2 updatedBy, 2.3 publishedBy): the user's e-mail address. */
export const authorOf = (user: WorkspaceUserRecord): string => user.email;

/**
 * Templates as the workspace edits them (issue 35 item 2): every read and write is scoped to the user's
 * organisation (another organisation's template is 404, as in the API); a draft stores only content the render's
 * own check (checkTemplateVersion) accepts, and published versions never change.
 */
@Injectable()
export class WorkspaceTemplates {
  constructor(
    private readonly transactions: Transactions<'templates' | 'templateVersions'>,
    private readonly templates: TemplateRepository,
    private readonly versions: TemplateVersionRepository,
    private readonly listing: TemplateListingQuery,
    private readonly examples: ExamplesCatalog,
  ) {}

  async list(organisationId: string, search: string | undefined, skip: number, take: number): Promise<{ items: TemplateRecord[]; total: number }> {
    const query = { skip, take, sortBy: 'updatedAt', sortDirection: SortDirection.Desc, filters: [], ...(search ? { search } : {}) };
    return this.listing.list(organisationId, query);
  }

  async create(user: WorkspaceUserRecord, name: string, exampleKey: string | undefined): Promise<{ template: TemplateRecord; version: TemplateVersionRecord }> {
    const example = exampleKey === undefined ? blankTemplate(name) : this.examples.find(exampleKey);
    if (example === null) throw new BadRequestException(`no example ${JSON.stringify(exampleKey)}`);
    const content: VersionContent = { templateJson: example.templateJson, sampleData: example.sampleData, translations: example.translations, documentNameTemplate: null };
    const created = await this.transactions.run(async (r) => {
      const template = await r.templates.create({ organisationId: user.organisationId, projectId: null, name, documentNameTemplate: null, updatedBy: authorOf(user) });
      const version = await r.templateVersions.addVersion(template.id, content, { author: authorOf(user), publish: false });
      return { id: template.id, version };
    });
    return { template: await this.require(user.organisationId, created.id), version: created.version };
  }

  async get(organisationId: string, templateId: string): Promise<{ template: TemplateRecord; versions: TemplateVersionRecord[] }> {
    const template = await this.require(organisationId, templateId);
    return { template, versions: await this.versions.listByTemplate(templateId) };
  }

  async version(organisationId: string, templateId: string, versionNumber: number): Promise<TemplateVersionRecord> {
    await this.require(organisationId, templateId);
    const version = versionNumber >= 1 && versionNumber <= MAX_VERSION_NUMBER ? await this.versions.findByNumber(templateId, versionNumber) : null;
    if (version === null) throw new NotFoundException(`version ${versionNumber} of template ${templateId} not found`);
    return version;
  }

  /** Replaces a draft's content; 422 naming what the render's check refuses, 409 for a published version. */
  async saveDraft(user: WorkspaceUserRecord, templateId: string, versionNumber: number, content: VersionContent): Promise<TemplateVersionRecord> {
    await this.version(user.organisationId, templateId, versionNumber);
    checkContent(content);
    try {
      const saved = await this.versions.updateDraft(templateId, versionNumber, content);
      await this.templates.update(user.organisationId, templateId, {}, authorOf(user));
      return saved;
    } catch (error) {
      if (error instanceof RecordConflictError) throw new ConflictException(`version ${versionNumber} is published and cannot change: start a new draft from it`);
      throw error;
    }
  }

  /** Publishes a draft (publishedAt, publishedBy); publishing a published version changes nothing. */
  async publish(user: WorkspaceUserRecord, templateId: string, versionNumber: number): Promise<TemplateVersionRecord> {
    const version = await this.version(user.organisationId, templateId, versionNumber);
    checkContent(version);
    return this.versions.publish(templateId, versionNumber, authorOf(user));
  }

  /** A new draft (the next version number) with the content of any version of the template. */
  async newDraft(user: WorkspaceUserRecord, templateId: string, fromVersion: number): Promise<TemplateVersionRecord> {
    const source = await this.version(user.organisationId, templateId, fromVersion);
    const { templateJson, sampleData, translations, documentNameTemplate } = source;
    return this.versions.addVersion(templateId, { templateJson, sampleData, translations, documentNameTemplate }, { author: authorOf(user), publish: false });
  }

  private async require(organisationId: string, templateId: string): Promise<TemplateRecord> {
    const template = await this.templates.findById(organisationId, templateId);
    if (template === null) throw new NotFoundException(`template ${templateId} not found`);
    return template;
  }
}

/** The sample data must be JSON `{ data, i18n }` and the version pass the render's own checks. */
function checkContent(content: VersionContent): void {
  const problems: string[] = [];
  const template = parsed(content.templateJson, 'templateJson', problems);
  const sample = parsed(content.sampleData, 'sampleData', problems);
  if (sample !== undefined && (typeof sample !== 'object' || sample === null || !('data' in sample))) problems.push('sampleData: must be a JSON object with a data member');
  const translations = content.translations === null ? null : parsed(content.translations, 'translations', problems);
  if (problems.length === 0) {
    const check = checkTemplateVersion({ template, translations, documentNameTemplate: content.documentNameTemplate });
    if (!check.ok) problems.push(...templateErrorLines(check.errors));
  }
  if (problems.length > 0) throw new UnprocessableEntityException({ message: 'the version is not valid', problems });
}

function parsed(text: string, what: string, problems: string[]): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    problems.push(`${what}: not JSON (${(error as Error).message})`);
    return undefined;
  }
}
