import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@docrender/contracts';
import { TemplateRepository, type RenderableTemplate } from '@docrender/persistence';

/** The largest version number PostgreSQL's integer column holds; a larger one cannot exist. */
const MAX_VERSION_NUMBER = 2_147_483_647;

export type ResolvedTemplate = RenderableTemplate & { version: NonNullable<RenderableTemplate['version']> };

/**
 * The template and version a render or validate path names (spec 4.2, 4.4), within the caller's organisation:
 * the latest published version when no version is given (a draft may be addressed by number), read in one query
 * with the organisation's custom fonts.
 * 404 TemplateNotFound (also for another organisation's template), VersionNotFound, NoPublishedVersion.
 */
@Injectable()
export class RenderTemplateResolver {
  constructor(private readonly templates: TemplateRepository) {}

  async resolve(organisationId: string, templateId: string, versionNumber: number | null): Promise<ResolvedTemplate> {
    const inRange = versionNumber === null || (versionNumber >= 1 && versionNumber <= MAX_VERSION_NUMBER);
    const found = await this.templates.findRenderable(organisationId, templateId, inRange ? versionNumber : 0);
    if (found === null) throw new DomainError(ErrorCode.TemplateNotFound, `template ${templateId} not found`);
    const { version } = found;
    if (version !== null) return { ...found, version };
    if (versionNumber === null) throw new DomainError(ErrorCode.NoPublishedVersion, `template ${templateId} has no published version`);
    throw new DomainError(ErrorCode.VersionNotFound, `version ${versionNumber} of template ${templateId} not found`);
  }
}
