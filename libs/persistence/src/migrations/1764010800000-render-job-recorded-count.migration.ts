import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every recorded document outcome of a job (rendered, blocked or failed) counted on the job row, next to
 * rendered_count: the `processed` of a progress callback (spec 2.10) is then read with the job row's lock instead of
 * counted over render_job_documents for every document, and the callback can be stored in the statement that
 * records the document (issue 23). Existing jobs are counted once here.
 */
export class RenderJobRecordedCount1764010800000 implements MigrationInterface {
  name = 'RenderJobRecordedCount1764010800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE render_jobs ADD COLUMN recorded_count integer NOT NULL DEFAULT 0`);
    await q.query(
      `UPDATE render_jobs j SET recorded_count = d.count
         FROM (SELECT job_id, count(*)::int AS count FROM render_job_documents GROUP BY job_id) d
        WHERE d.job_id = j.id`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE render_jobs DROP COLUMN recorded_count`);
  }
}
