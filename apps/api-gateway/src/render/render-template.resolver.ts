import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@docrender/contracts';
import { TemplateRecord, TemplateRepository, TemplateVersionRecord, TemplateVersionRepository } from '@docrender/persistence';

/** The largest version number PostgreSQL's integer column holds; a larger one cannot exist. */
const MAX_VERSION_NUMBER = 2_147_483_647;

export type ResolvedTemplate = { template: TemplateRecord; version: TemplateVersionRecord };

/**
 * The template and version a render or validate path names (spec 4.2, 4.4), within the caller's organisation:
 * the latest published version when no version is given (a draft may be addressed by number).
 * 404 TemplateNotFound (also for another organisation's template), VersionNotFound, NoPublishedVersion.
 */
@Injectable()
export class RenderTemplateResolver {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly versions: TemplateVersionRepository,
  ) {}

  async resolve(organisationId: string, templateId: string, versionNumber: number | null): Promise<ResolvedTemplate> {
    const template = await this.templates.findById(organisationId, templateId);
    if (template === null) throw new DomainError(ErrorCode.TemplateNotFound, `template ${templateId} not found`);
    if (versionNumber === null) {
      const latest = await this.versions.findLatestPublished(templateId);
      if (latest === null) throw new DomainError(ErrorCode.NoPublishedVersion, `template ${templateId} has no published version`);
      return { template, version: latest };
    }
    const version =
      versionNumber >= 1 && versionNumber <= MAX_VERSION_NUMBER ? await this.versions.findByNumber(templateId, versionNumber) : null;
    if (version === null) throw new DomainError(ErrorCode.VersionNotFound, `version ${versionNumber} of template ${templateId} not found`);
    return { template, version };
  }
}
