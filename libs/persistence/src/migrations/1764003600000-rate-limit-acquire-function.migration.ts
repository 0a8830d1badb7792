import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sliding-window permit decision as one server-side function, so a request's rate-limit check is one round trip
 * instead of five (BEGIN, lock, count, insert, COMMIT). It takes the same transaction-scoped advisory lock per
 * (organisation, category); being VOLATILE, each statement inside sees rows committed before it ran, so the count
 * after the lock includes every permit granted by a concurrent caller that held the lock before.
 */
export class RateLimitAcquireFunction1764003600000 implements MigrationInterface {
  name = 'RateLimitAcquireFunction1764003600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION rate_limit_acquire(p_organisation uuid, p_category text, p_limit integer, p_window_start timestamptz, p_now timestamptz)
      RETURNS TABLE (allowed boolean, permits_in_window integer, oldest_in_window timestamptz)
      LANGUAGE plpgsql VOLATILE AS $fn$
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended('rate-limit:' || p_organisation::text || ':' || p_category, 0));
        SELECT count(*)::int, min(r.permitted_at) INTO permits_in_window, oldest_in_window
          FROM rate_limit_permits r
         WHERE r.organisation_id = p_organisation AND r.category = p_category AND r.permitted_at > p_window_start;
        allowed := permits_in_window < p_limit;
        IF allowed THEN
          INSERT INTO rate_limit_permits (organisation_id, category, permitted_at) VALUES (p_organisation, p_category, p_now);
        END IF;
        RETURN NEXT;
      END
      $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION rate_limit_acquire(uuid, text, integer, timestamptz, timestamptz)`);
  }
}
