import type { TemplateDto, TemplateVersionDto, TemplateVersionSummaryDto } from '@docrender/contracts';
import type { TemplateRecord, TemplateVersionRecord, TemplateVersionSummaryRecord } from '@docrender/persistence';

/** Spec 2.2. */
export function toTemplateDto(r: TemplateRecord): TemplateDto {
  return {
    id: r.id,
    name: r.name,
    documentNameTemplate: r.documentNameTemplate,
    projectId: r.projectId,
    projectName: r.projectName,
    latestVersionNumber: r.latestVersionNumber,
    versionCount: r.versionCount,
    updatedAt: r.updatedAt.toISOString(),
    updatedBy: r.updatedBy,
    masterTemplateId: r.masterTemplateId,
    masterTemplateName: r.masterTemplateName,
  };
}

/** Spec 2.3 without templateJson and sampleData (items of the version list). */
export function toVersionSummaryDto(r: TemplateVersionSummaryRecord): TemplateVersionSummaryDto {
  return {
    id: r.id,
    versionNumber: r.versionNumber,
    translations: r.translations,
    documentNameTemplate: r.documentNameTemplate,
    publishedAt: r.publishedAt?.toISOString() ?? null,
    publishedBy: r.publishedBy,
    templateId: r.templateId,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Spec 2.3. */
export function toVersionDto(r: TemplateVersionRecord): TemplateVersionDto {
  return { ...toVersionSummaryDto(r), templateJson: r.templateJson, sampleData: r.sampleData };
}
