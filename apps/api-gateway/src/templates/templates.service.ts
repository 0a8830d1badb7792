import { Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  type ListQuery,
  type PagedResult,
  type TemplateDto,
  type TemplateVersionDto,
  type TemplateVersionSummaryDto,
} from '@docrender/contracts';
import {
  ProjectRepository,
  TemplateListingQuery,
  TemplateRepository,
  TemplateVersionListingQuery,
  TemplateVersionRepository,
  type TemplateRecord,
  type TemplateVersionRecord,
} from '@docrender/persistence';
import type { Caller } from '../auth/caller';
import { toTemplateDto, toVersionDto, toVersionSummaryDto } from './template.mapper';

/** `latest` in a version path: the newest published version (spec 4.10). */
export const LATEST = 'latest';

/**
 * Templates and versions of the caller's organisation (spec 4.7–4.11). Everything is looked up within the caller's
 * organisation: a template of another organisation is 404 TemplateNotFound, exactly like a missing one.
 */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly versions: TemplateVersionRepository,
    private readonly projects: ProjectRepository,
    private readonly templateListing: TemplateListingQuery,
    private readonly versionListing: TemplateVersionListingQuery,
  ) {}

  async list(caller: Caller, query: ListQuery): Promise<PagedResult<TemplateDto>> {
    const page = await this.templateListing.list(caller.organisationId, query);
    return { items: page.items.map(toTemplateDto), total: page.total, skip: query.skip, take: query.take };
  }

  /** Spec 4.7 second form; a project of another organisation is 404 EntityNotFound. */
  async listOfProject(caller: Caller, projectId: string, query: ListQuery): Promise<PagedResult<TemplateDto>> {
    if (!(await this.projects.findById(caller.organisationId, projectId))) throw new DomainError(ErrorCode.EntityNotFound, `project ${projectId} not found`);
    const page = await this.templateListing.list(caller.organisationId, query, { projectId });
    return { items: page.items.map(toTemplateDto), total: page.total, skip: query.skip, take: query.take };
  }

  async get(caller: Caller, templateId: string): Promise<TemplateDto> {
    return toTemplateDto(await this.template(caller, templateId));
  }

  async listVersions(caller: Caller, templateId: string, query: ListQuery): Promise<PagedResult<TemplateVersionSummaryDto>> {
    await this.template(caller, templateId);
    const page = await this.versionListing.list(templateId, query);
    return { items: page.items.map(toVersionSummaryDto), total: page.total, skip: query.skip, take: query.take };
  }

  async getVersion(caller: Caller, templateId: string, version: number | typeof LATEST): Promise<TemplateVersionDto> {
    return toVersionDto(await this.version(caller, templateId, version));
  }

  /** Spec 4.11: the only template write; null clears the pattern. */
  async updateDocumentNameTemplate(caller: Caller, templateId: string, versionNumber: number, documentNameTemplate: string | null): Promise<TemplateVersionDto> {
    await this.version(caller, templateId, versionNumber);
    const updated = await this.versions.updateDocumentNameTemplate(templateId, versionNumber, documentNameTemplate);
    if (!updated) throw versionNotFound(templateId, versionNumber);
    return toVersionDto(updated);
  }

  /** The organisation's template, or 404 TemplateNotFound. */
  async template(caller: Caller, templateId: string): Promise<TemplateRecord> {
    const template = await this.templates.findById(caller.organisationId, templateId);
    if (!template) throw new DomainError(ErrorCode.TemplateNotFound, `template ${templateId} not found`);
    return template;
  }

  /** A version of the organisation's template: 404 TemplateNotFound, VersionNotFound, or NoPublishedVersion for `latest`. */
  async version(caller: Caller, templateId: string, version: number | typeof LATEST): Promise<TemplateVersionRecord> {
    await this.template(caller, templateId);
    if (version === LATEST) {
      const latest = await this.versions.findLatestPublished(templateId);
      if (!latest) throw new DomainError(ErrorCode.NoPublishedVersion, `template ${templateId} has no published version`);
      return latest;
    }
    const found = await this.versions.findByNumber(templateId, version);
    if (!found) throw versionNotFound(templateId, version);
    return found;
  }
}

function versionNotFound(templateId: string, versionNumber: number): DomainError {
  return new DomainError(ErrorCode.VersionNotFound, `version ${versionNumber} of template ${templateId} not found`);
}
