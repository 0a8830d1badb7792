import type { EntityManager } from 'typeorm';

/**
 * The documents a sync render paid for whose answer did not reach the client, kept by the request's fingerprint
 * (decision 0041). The rendering use case decides what a document is (it stores them as JSON); this keeps them for
 * `windowMs` and hands them out once.
 */
export class UndeliveredRenderRepository {
  constructor(private readonly manager: EntityManager) {}

  /** Keeps `documents` for the request `fingerprint` of the organisation, replacing what an earlier answer kept. */
  async remember(organisationId: string, fingerprint: string, documents: readonly object[]): Promise<void> {
    await this.manager.query(
      `INSERT INTO undelivered_renders (organisation_id, fingerprint, documents) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (organisation_id, fingerprint) DO UPDATE SET documents = EXCLUDED.documents, created_at = now()`,
      [organisationId, fingerprint, JSON.stringify(documents)],
    );
  }

  /**
   * Takes (deletes and returns) the documents kept for `fingerprint` within the last `windowMs`; an empty list when
   * none are. Two requests taking at once get them once. What the organisation kept longer ago goes with it.
   */
  async take(organisationId: string, fingerprint: string, windowMs: number): Promise<object[]> {
    const rows = (await this.manager.query(
      `WITH taken AS (
         DELETE FROM undelivered_renders
          WHERE organisation_id = $1 AND (fingerprint = $2 OR created_at < now() - make_interval(secs => $3))
          RETURNING fingerprint, documents, created_at
       )
       SELECT documents FROM taken WHERE fingerprint = $2 AND created_at >= now() - make_interval(secs => $3)`,
      [organisationId, fingerprint, windowMs / 1000],
    )) as { documents: object[] }[];
    return rows[0]?.documents ?? [];
  }
}
