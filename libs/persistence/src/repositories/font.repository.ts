import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { CustomFontRef } from '@docrender/contracts';
import type { FontCatalogue, FontFamilyRecord, FontFileRecord, FontFormat, NewFontFile } from '@docrender/organisation-resources';
import { FontFamilyEntity, FontFileEntity } from '../entities';


/**
 * SQL giving the live font files of the organisation `organisationId` (an SQL expression) as a JSON array of
 * CustomFontRef, in listLiveFamilies' order (family name, then weight and style). One subquery, so a caller can read
 * the fonts in the same round trip as what else a render needs.
 */
export function customFontRefsJson(organisationId: string): string {
  return `(SELECT coalesce(json_agg(json_build_object('family', f.family, 'weight', ff.weight, 'style', ff.style, 'blobKey', ff.blob_key, 'format', ff.format)
                                ORDER BY lower(f.family), ff.weight, ff.style), '[]'::json)
             FROM font_families f JOIN font_files ff ON ff.font_family_id = f.id
            WHERE f.organisation_id = ${organisationId} AND f.deleted_at IS NULL)`;
}

export class FontRepository implements FontCatalogue {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Adds font files to the organisation's live family of that name (case-insensitive), creating the family when
   * there is none. A file for a weight and style the family already has replaces it; the replaced files' blob keys
   * are returned so the caller can delete them from the blob store.
   */
  async addFiles(
    organisationId: string,
    family: string,
    files: readonly NewFontFile[],
    now: Date = new Date(),
  ): Promise<{ family: FontFamilyRecord; replacedBlobKeys: string[] }> {
    return this.manager.transaction(async (m) => {
      const repo = new FontRepository(m);
      let existing = await repo.findLiveFamily(organisationId, family);
      if (!existing) {
        const id = randomUUID();
        await m.insert(FontFamilyEntity, { id, organisationId, family, createdAt: now, deletedAt: null });
        existing = { id, organisationId, family, createdAt: now, files: [] };
      }
      const replacedBlobKeys: string[] = [];
      for (const file of files) {
        const replaced = existing.files.find((f) => f.weight === file.weight && f.style === file.style);
        if (replaced) {
          replacedBlobKeys.push(replaced.blobKey);
          await m.delete(FontFileEntity, { id: replaced.id });
        }
        await m.insert(FontFileEntity, { id: randomUUID(), fontFamilyId: existing.id, ...file, createdAt: now });
      }
      const updated = await repo.findLiveFamily(organisationId, family);
      if (!updated) throw new Error(`font family ${family} vanished`);
      return { family: updated, replacedBlobKeys };
    });
  }

  /** The live family with this name (case-insensitive), with its files. */
  async findLiveFamily(organisationId: string, family: string): Promise<FontFamilyRecord | null> {
    const row = await this.manager
      .createQueryBuilder(FontFamilyEntity, 'f')
      .where('f.organisation_id = :organisationId AND lower(f.family) = lower(:family) AND f.deleted_at IS NULL', { organisationId, family })
      .getOne();
    if (!row) return null;
    return { id: row.id, organisationId: row.organisationId, family: row.family, createdAt: row.createdAt, files: await this.filesOf([row.id]).then((m) => m.get(row.id) ?? []) };
  }

  /** Every live family of the organisation with its files, by name. */
  async listLiveFamilies(organisationId: string): Promise<FontFamilyRecord[]> {
    const rows = await this.manager
      .createQueryBuilder(FontFamilyEntity, 'f')
      .where('f.organisation_id = :organisationId AND f.deleted_at IS NULL', { organisationId })
      .orderBy('lower(f.family)', 'ASC')
      .getMany();
    const files = await this.filesOf(rows.map((r) => r.id));
    return rows.map((r) => ({ id: r.id, organisationId: r.organisationId, family: r.family, createdAt: r.createdAt, files: files.get(r.id) ?? [] }));
  }

  /** The live font files of the organisation as the render command carries them. */
  async listCustomFontRefs(organisationId: string): Promise<CustomFontRef[]> {
    const [row] = (await this.manager.query(`SELECT ${customFontRefsJson('$1::uuid')} AS custom_fonts`, [organisationId])) as { custom_fonts: CustomFontRef[] }[];
    return row.custom_fonts;
  }

  /** Marks the live family deleted (templates using it then get UnresolvedFont); false when there is none. */
  async deleteFamily(organisationId: string, family: string, now: Date = new Date()): Promise<boolean> {
    const result = (await this.manager.query(
      `UPDATE font_families SET deleted_at = $3 WHERE organisation_id = $1 AND lower(family) = lower($2) AND deleted_at IS NULL`,
      [organisationId, family, now],
    )) as [unknown[], number];
    return result[1] > 0;
  }

  private async filesOf(familyIds: string[]): Promise<Map<string, FontFileRecord[]>> {
    const byFamily = new Map<string, FontFileRecord[]>();
    if (familyIds.length === 0) return byFamily;
    const rows = await this.manager
      .createQueryBuilder(FontFileEntity, 'f')
      .where('f.font_family_id IN (:...familyIds)', { familyIds })
      .orderBy('f.weight', 'ASC')
      .addOrderBy('f.style', 'ASC')
      .getMany();
    for (const r of rows) {
      const list = byFamily.get(r.fontFamilyId) ?? [];
      list.push({ id: r.id, weight: r.weight, style: r.style, format: r.format as FontFormat, blobKey: r.blobKey, fileSizeBytes: r.fileSizeBytes });
      byFamily.set(r.fontFamilyId, list);
    }
    return byFamily;
  }
}
