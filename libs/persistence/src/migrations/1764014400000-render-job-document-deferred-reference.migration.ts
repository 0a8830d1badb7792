import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A job document's outcome names its stored document (render_job_documents.document_id), checked at commit instead of
 * at the insert: the statement that locks the job row and records the outcome with its progress callback stores the
 * document only once the outcome is stored (issue 23: one statement per document instead of five), or the payment
 * and row follow in the same transaction; a transaction whose payment fails rolls back both.
 */
export class RenderJobDocumentDeferredReference1764014400000 implements MigrationInterface {
  name = 'RenderJobDocumentDeferredReference1764014400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE render_job_documents ALTER CONSTRAINT render_job_documents_document_id_fkey DEFERRABLE INITIALLY DEFERRED`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE render_job_documents ALTER CONSTRAINT render_job_documents_document_id_fkey NOT DEFERRABLE`);
  }
}
