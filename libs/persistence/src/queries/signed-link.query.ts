import type { EntityManager } from 'typeorm';
import { StoredDocumentEntity } from '../entities';
import type { StoredDocumentRecord } from '../repositories/stored-document.repository';

/** The owner and stored image of a version's preview. */
export type PreviewImageLocation = { organisationId: string; blobKey: string | null };

/**
 * Lookups by id whatever the organisation, only for signed links (viewUrl, preview image): the link's signature
 * already proves that this service handed the id out. The organisation is returned so the request can be counted
 * against its rate limit.
 */
export class SignedLinkQuery {
  constructor(private readonly manager: EntityManager) {}

  async findDocument(id: string): Promise<StoredDocumentRecord | null> {
    const row = await this.manager.findOneBy(StoredDocumentEntity, { id });
    return row ? { ...row } : null;
  }

  /** null when the template or the version does not exist. */
  async findPreviewImage(templateId: string, versionNumber: number): Promise<PreviewImageLocation | null> {
    const rows = (await this.manager.query(
      `SELECT t.organisation_id, v.preview_image_blob_key
         FROM template_versions v JOIN templates t ON t.id = v.template_id
        WHERE v.template_id = $1 AND v.version_number = $2`,
      [templateId, versionNumber],
    )) as { organisation_id: string; preview_image_blob_key: string | null }[];
    return rows.length === 0 ? null : { organisationId: rows[0].organisation_id, blobKey: rows[0].preview_image_blob_key };
  }
}
