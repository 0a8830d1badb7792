import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { CustomFontRef } from '@docrender/contracts';
import type { RenderableTemplate } from '@docrender/rendering';
import { TemplateEntity } from '../entities';
import { queryPrepared, type PreparedStatement } from '../prepared-statement';
import { customFontRefsJson } from './font.repository';

/** A template row as stored. */
export type TemplateRow = {
  id: string;
  organisationId: string;
  projectId: string | null;
  name: string;
  documentNameTemplate: string | null;
  masterTemplateId: string | null;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
};

/** A template with the derived fields of spec 2.2 (Dates, not yet ISO strings). */
export type TemplateRecord = TemplateRow & {
  projectName: string | null;
  /** Newest published version; null until something is published. */
  latestVersionNumber: number | null;
  /** All versions, published or not. */
  versionCount: number;
  masterTemplateName: string | null;
};

export type NewTemplate = {
  id?: string;
  organisationId: string;
  projectId: string | null;
  name: string;
  documentNameTemplate: string | null;
  masterTemplateId?: string | null;
  updatedBy: string;
};

export type TemplateChanges = Partial<Pick<TemplateRow, 'projectId' | 'name' | 'documentNameTemplate' | 'masterTemplateId'>>;

/**
 * The SELECT giving every TemplateRecord field for the templates `t` of organisation $1; callers append conditions.
 * Listing queries can reuse it (it is what the spec 2.2 resource needs).
 */
export const TEMPLATE_RECORD_SELECT = `
  SELECT t.id, t.organisation_id, t.project_id, t.name, t.document_name_template, t.master_template_id,
         t.updated_by, t.created_at, t.updated_at,
         p.name AS project_name, m.name AS master_template_name,
         (SELECT max(v.version_number) FROM template_versions v WHERE v.template_id = t.id AND v.published_at IS NOT NULL)
           AS latest_version_number,
         (SELECT count(*)::int FROM template_versions v WHERE v.template_id = t.id) AS version_count
    FROM templates t
    LEFT JOIN projects p ON p.id = t.project_id
    LEFT JOIN templates m ON m.id = t.master_template_id
   WHERE t.organisation_id = $1`;

export type TemplateRecordRow = {
  id: string;
  organisation_id: string;
  project_id: string | null;
  name: string;
  document_name_template: string | null;
  master_template_id: string | null;
  updated_by: string;
  created_at: Date;
  updated_at: Date;
  project_name: string | null;
  master_template_name: string | null;
  latest_version_number: number | null;
  version_count: number;
};

export function toTemplateRecord(row: TemplateRecordRow): TemplateRecord {
  return {
    id: row.id,
    organisationId: row.organisation_id,
    projectId: row.project_id,
    name: row.name,
    documentNameTemplate: row.document_name_template,
    masterTemplateId: row.master_template_id,
    updatedBy: row.updated_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    projectName: row.project_name,
    masterTemplateName: row.master_template_name,
    latestVersionNumber: row.latest_version_number,
    versionCount: row.version_count,
  };
}

/** The template, the version a render addresses and the organisation's custom fonts (every render's second statement). */
const FIND_RENDERABLE: PreparedStatement = {
  name: 'template-find-renderable',
  text: `SELECT t.id, t.name, t.document_name_template,
                v.version_number, v.template_json, v.translations, v.document_name_template AS version_document_name_template,
                ${customFontRefsJson('t.organisation_id')} AS custom_fonts
           FROM templates t
           LEFT JOIN LATERAL (
             SELECT v.version_number, v.template_json, v.translations, v.document_name_template
               FROM template_versions v
              WHERE v.template_id = t.id AND (CASE WHEN $3::integer IS NULL THEN v.published_at IS NOT NULL ELSE v.version_number = $3 END)
              ORDER BY v.version_number DESC
              LIMIT 1
           ) v ON true
          WHERE t.organisation_id = $1 AND t.id = $2`,
};

type RenderableRow = {
  id: string;
  name: string;
  document_name_template: string | null;
  version_number: number | null;
  template_json: string | null;
  translations: string | null;
  version_document_name_template: string | null;
  custom_fonts: CustomFontRef[];
};

export class TemplateRepository {
  constructor(private readonly manager: EntityManager) {}

  async create(input: NewTemplate, now: Date = new Date()): Promise<TemplateRow> {
    const row: TemplateEntity = {
      id: input.id ?? randomUUID(),
      organisationId: input.organisationId,
      projectId: input.projectId,
      name: input.name,
      documentNameTemplate: input.documentNameTemplate,
      masterTemplateId: input.masterTemplateId ?? null,
      updatedBy: input.updatedBy,
      createdAt: now,
      updatedAt: now,
    };
    await this.manager.insert(TemplateEntity, row);
    return { ...row };
  }

  /**
   * The organisation's template with the version a render addresses (version `versionNumber`, draft or not, or the
   * latest published one when it is null), and the organisation's custom fonts, in one round trip; null when the
   * organisation has no such template.
   */
  async findRenderable(organisationId: string, id: string, versionNumber: number | null): Promise<RenderableTemplate | null> {
    const rows = await queryPrepared<RenderableRow>(this.manager, FIND_RENDERABLE, [organisationId, id, versionNumber]);
    if (rows.length === 0) return null;
    const [row] = rows;
    return {
      template: { id: row.id, name: row.name, documentNameTemplate: row.document_name_template },
      version:
        row.version_number === null || row.template_json === null
          ? null
          : { versionNumber: row.version_number, templateJson: row.template_json, translations: row.translations, documentNameTemplate: row.version_document_name_template },
      customFonts: row.custom_fonts,
    };
  }

  /** The template with its derived fields, when it exists and belongs to the organisation. */
  async findById(organisationId: string, id: string): Promise<TemplateRecord | null> {
    const rows = (await this.manager.query(`${TEMPLATE_RECORD_SELECT} AND t.id = $2`, [organisationId, id])) as TemplateRecordRow[];
    return rows.length > 0 ? toTemplateRecord(rows[0]) : null;
  }

  /** Templates of the organisation with this name in this project (null: outside any project). */
  async findByName(organisationId: string, projectId: string | null, name: string): Promise<TemplateRow[]> {
    const rows = await this.manager
      .createQueryBuilder(TemplateEntity, 't')
      .where('t.organisation_id = :organisationId AND t.name = :name', { organisationId, name })
      .andWhere(projectId === null ? 't.project_id IS NULL' : 't.project_id = :projectId', { projectId })
      .orderBy('t.created_at', 'ASC')
      .getMany();
    return rows.map((r) => ({ ...r }));
  }

  /** Applies the changes and records who made them; null when the template is not the organisation's. */
  async update(organisationId: string, id: string, changes: TemplateChanges, updatedBy: string, now: Date = new Date()): Promise<TemplateRecord | null> {
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    await this.manager.update(TemplateEntity, { id, organisationId }, { ...defined, updatedBy, updatedAt: now });
    return this.findById(organisationId, id);
  }
}
