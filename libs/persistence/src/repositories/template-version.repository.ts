import { randomUUID } from 'node:crypto';
import { IsNull, Not, type EntityManager } from 'typeorm';
import { TemplateEntity, TemplateVersionEntity } from '../entities';
import { RecordConflictError, RecordNotFoundError } from '../persistence.error';

/** Spec 2.3 with Dates, plus the preview image's blob key. */
export type TemplateVersionRecord = {
  id: string;
  templateId: string;
  versionNumber: number;
  /** The DSL as JSON text. */
  templateJson: string;
  /** JSON text of `{ data, i18n }`. */
  sampleData: string;
  /** JSON text of the translation strings, or null. */
  translations: string | null;
  documentNameTemplate: string | null;
  /** null for a draft. */
  publishedAt: Date | null;
  publishedBy: string | null;
  previewImageBlobKey: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type VersionContent = {
  templateJson: string;
  sampleData: string;
  translations: string | null;
  documentNameTemplate: string | null;
};

/** A version's DSL with its template's name: what a search over an organisation's templates reads. */
export type OrganisationVersionDsl = { templateId: string; templateName: string; versionNumber: number; published: boolean; templateJson: string };

export class TemplateVersionRepository {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Adds the next version (max + 1) of the template, as a draft or published (`publish` set), and records the
   * change on the template (updatedAt, updatedBy). Concurrent calls get distinct numbers (the template row is locked).
   */
  async addVersion(
    templateId: string,
    content: VersionContent,
    options: { author: string; publish: boolean; now?: Date },
  ): Promise<TemplateVersionRecord> {
    const now = options.now ?? new Date();
    return this.manager.transaction(async (m) => {
      const locked = (await m.query('SELECT id FROM templates WHERE id = $1 FOR NO KEY UPDATE', [templateId])) as unknown[];
      if (locked.length === 0) throw new RecordNotFoundError('template', templateId);
      const [{ next }] = (await m.query(
        'SELECT coalesce(max(version_number), 0) + 1 AS next FROM template_versions WHERE template_id = $1',
        [templateId],
      )) as { next: number }[];
      const row: TemplateVersionEntity = {
        id: randomUUID(),
        templateId,
        versionNumber: next,
        ...content,
        publishedAt: options.publish ? now : null,
        publishedBy: options.publish ? options.author : null,
        previewImageBlobKey: null,
        createdAt: now,
        updatedAt: now,
      };
      await m.insert(TemplateVersionEntity, row);
      await m.update(TemplateEntity, { id: templateId }, { updatedAt: now, updatedBy: options.author });
      return { ...row };
    });
  }

  async findByNumber(templateId: string, versionNumber: number): Promise<TemplateVersionRecord | null> {
    const row = await this.manager.findOneBy(TemplateVersionEntity, { templateId, versionNumber });
    return row ? { ...row } : null;
  }

  /** The newest published version; null when nothing is published (404 NoPublishedVersion). */
  async findLatestPublished(templateId: string): Promise<TemplateVersionRecord | null> {
    const row = await this.manager.findOne(TemplateVersionEntity, {
      where: { templateId, publishedAt: Not(IsNull()) },
      order: { versionNumber: 'DESC' },
    });
    return row ? { ...row } : null;
  }

  /** Every version of the template, oldest first. */
  async listByTemplate(templateId: string): Promise<TemplateVersionRecord[]> {
    const rows = await this.manager.find(TemplateVersionEntity, { where: { templateId }, order: { versionNumber: 'ASC' } });
    return rows.map((r) => ({ ...r }));
  }

  /** Every version of every template of the organisation, templates by name, versions by number. */
  async listDslByOrganisation(organisationId: string): Promise<OrganisationVersionDsl[]> {
    const rows = (await this.manager.query(
      `SELECT t.id AS template_id, t.name AS template_name, v.version_number, v.published_at IS NOT NULL AS published, v.template_json
         FROM templates t JOIN template_versions v ON v.template_id = t.id
        WHERE t.organisation_id = $1
        ORDER BY lower(t.name), t.id, v.version_number`,
      [organisationId],
    )) as { template_id: string; template_name: string; version_number: number; published: boolean; template_json: string }[];
    return rows.map((r) => ({ templateId: r.template_id, templateName: r.template_name, versionNumber: r.version_number, published: r.published, templateJson: r.template_json }));
  }

  /**
   * Publishes a draft. Publishing an already published version changes nothing and returns it.
   * Throws RecordNotFoundError when the version does not exist.
   */
  async publish(templateId: string, versionNumber: number, publishedBy: string, now: Date = new Date()): Promise<TemplateVersionRecord> {
    await this.manager.update(
      TemplateVersionEntity,
      { templateId, versionNumber, publishedAt: IsNull() },
      { publishedAt: now, publishedBy, updatedAt: now },
    );
    const version = await this.findByNumber(templateId, versionNumber);
    if (!version) throw new RecordNotFoundError('version', `${templateId}/${versionNumber}`);
    return version;
  }

  /** Spec 4.11: the only template write of the HTTP interface. null when the version does not exist. */
  async updateDocumentNameTemplate(
    templateId: string,
    versionNumber: number,
    documentNameTemplate: string | null,
    now: Date = new Date(),
  ): Promise<TemplateVersionRecord | null> {
    await this.manager.update(TemplateVersionEntity, { templateId, versionNumber }, { documentNameTemplate, updatedAt: now });
    return this.findByNumber(templateId, versionNumber);
  }

  /**
   * Replaces the content of a draft (and forgets its preview image, which showed the old content).
   * Throws RecordConflictError for a published version (they are immutable).
   */
  async updateDraft(templateId: string, versionNumber: number, content: VersionContent, now: Date = new Date()): Promise<TemplateVersionRecord> {
    const result = await this.manager.update(
      TemplateVersionEntity,
      { templateId, versionNumber, publishedAt: IsNull() },
      { ...content, previewImageBlobKey: null, updatedAt: now },
    );
    if ((result.affected ?? 0) === 0) {
      const existing = await this.findByNumber(templateId, versionNumber);
      if (!existing) throw new RecordNotFoundError('version', `${templateId}/${versionNumber}`);
      throw new RecordConflictError(`version ${versionNumber} of template ${templateId} is published and cannot change`);
    }
    const version = await this.findByNumber(templateId, versionNumber);
    if (!version) throw new RecordNotFoundError('version', `${templateId}/${versionNumber}`);
    return version;
  }

  /**
   * Overwrites the content of a version even when published, keeping its publication (development seeds only;
   * published versions are otherwise immutable). Clears the preview image, which showed the old content.
   */
  async replacePublishedContent(templateId: string, versionNumber: number, content: VersionContent, now: Date = new Date()): Promise<TemplateVersionRecord> {
    await this.manager.update(TemplateVersionEntity, { templateId, versionNumber }, { ...content, previewImageBlobKey: null, updatedAt: now });
    const version = await this.findByNumber(templateId, versionNumber);
    if (!version) throw new RecordNotFoundError('version', `${templateId}/${versionNumber}`);
    return version;
  }

  /** Records where the preview PNG of a version is stored (null removes it); not a change of the version's content. */
  async setPreviewImage(templateId: string, versionNumber: number, blobKey: string | null): Promise<boolean> {
    const result = await this.manager.update(TemplateVersionEntity, { templateId, versionNumber }, { previewImageBlobKey: blobKey });
    return (result.affected ?? 0) > 0;
  }
}
