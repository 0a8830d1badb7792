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
    // The two lookups run at once; the version only counts once the template is known to be the organisation's.
    const [template, version] = await Promise.all([
      this.templates.findById(organisationId, templateId),
      versionNumber === null
        ? this.versions.findLatestPublished(templateId)
        : versionNumber >= 1 && versionNumber <= MAX_VERSION_NUMBER
          ? this.versions.findByNumber(templateId, versionNumber)
          : Promise.resolve(null),
    ]);
    if (template === null) throw new DomainError(ErrorCode.TemplateNotFound, `template ${templateId} not found`);
    if (version !== null) return { template, version };
    if (versionNumber === null) throw new DomainError(ErrorCode.NoPublishedVersion, `template ${templateId} has no published version`);
    throw new DomainError(ErrorCode.VersionNotFound, `version ${versionNumber} of template ${templateId} not found`);
  }
}
