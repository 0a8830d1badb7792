import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole first schema. Hand-written (never generated, never synchronize): every index says which query it serves.
 * Identifiers are UUIDs made by the application (crypto.randomUUID), so no extension is needed.
 */
export class InitialSchema1763740800000 implements MigrationInterface {
  name = 'InitialSchema1763740800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organisations (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        tier text NOT NULL,
        included_pages_per_month integer NOT NULL CHECK (included_pages_per_month >= 0),
        included_tokens_per_month integer NOT NULL CHECK (included_tokens_per_month >= 0),
        billing_period_start timestamptz NOT NULL,
        billing_period_end timestamptz NOT NULL,
        retention_days integer NULL CHECK (retention_days > 0),
        user_count integer NOT NULL DEFAULT 0 CHECK (user_count >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz NULL,
        CHECK (billing_period_end > billing_period_start)
      )`);
    // The seed matches organisations without an id by name.
    await q.query(`CREATE INDEX organisations_name_idx ON organisations (name)`);

    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        environment text NOT NULL CHECK (environment IN ('test', 'production')),
        lookup_prefix text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        label text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz NULL
      )`);
    // Every authenticated request: find the candidate rows by the key's non-secret prefix.
    await q.query(`CREATE INDEX api_keys_lookup_prefix_idx ON api_keys (lookup_prefix)`);
    await q.query(`CREATE INDEX api_keys_organisation_idx ON api_keys (organisation_id, created_at)`);

    await q.query(`
      CREATE TABLE webhook_secrets (
        organisation_id uuid PRIMARY KEY REFERENCES organisations (id) ON DELETE CASCADE,
        active_secret text NOT NULL,
        previous_secret text NULL,
        previous_expires_at timestamptz NULL,
        rotated_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((previous_secret IS NULL) = (previous_expires_at IS NULL))
      )`);

    await q.query(`
      CREATE TABLE projects (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX projects_organisation_name_idx ON projects (organisation_id, name)`);

    await q.query(`
      CREATE TABLE templates (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        project_id uuid NULL REFERENCES projects (id) ON DELETE SET NULL,
        name text NOT NULL,
        document_name_template text NULL,
        master_template_id uuid NULL REFERENCES templates (id) ON DELETE SET NULL,
        updated_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Spec 4.1 templates: sortable by updatedAt (default), name, createdAt within an organisation; filter project.guid.
    await q.query(`CREATE INDEX templates_org_updated_at_idx ON templates (organisation_id, updated_at, id)`);
    await q.query(`CREATE INDEX templates_org_name_idx ON templates (organisation_id, name, id)`);
    await q.query(`CREATE INDEX templates_org_created_at_idx ON templates (organisation_id, created_at, id)`);
    await q.query(`CREATE INDEX templates_project_updated_at_idx ON templates (project_id, updated_at, id)`);
    await q.query(`CREATE INDEX templates_master_idx ON templates (master_template_id) WHERE master_template_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE template_versions (
        id uuid PRIMARY KEY,
        template_id uuid NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
        version_number integer NOT NULL CHECK (version_number > 0),
        template_json text NOT NULL,
        sample_data text NOT NULL,
        translations text NULL,
        document_name_template text NULL,
        published_at timestamptz NULL,
        published_by text NULL,
        preview_image_blob_key text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((published_at IS NULL) = (published_by IS NULL))
      )`);
    // Render and version paths address (template, versionNumber); the version list sorts by versionNumber by default.
    await q.query(`CREATE UNIQUE INDEX template_versions_number_idx ON template_versions (template_id, version_number)`);
    // "latest published version" of a template.
    await q.query(
      `CREATE INDEX template_versions_published_idx ON template_versions (template_id, version_number DESC) WHERE published_at IS NOT NULL`,
    );
    await q.query(`CREATE INDEX template_versions_published_at_idx ON template_versions (template_id, published_at)`);
    await q.query(`CREATE INDEX template_versions_created_at_idx ON template_versions (template_id, created_at)`);
    await q.query(`CREATE INDEX template_versions_updated_at_idx ON template_versions (template_id, updated_at)`);

    await q.query(`
      CREATE TABLE render_jobs (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        template_id uuid NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
        version_number integer NOT NULL,
        environment text NOT NULL CHECK (environment IN ('test', 'production')),
        language text NULL,
        persist boolean NOT NULL,
        include_document boolean NOT NULL,
        callback_url text NOT NULL,
        input_blob_key text NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'completed', 'failed')),
        status text NULL CHECK (status IN ('ok', 'partial', 'failed', 'insufficient_credit')),
        requested_count integer NOT NULL CHECK (requested_count >= 0),
        rendered_count integer NOT NULL DEFAULT 0 CHECK (rendered_count >= 0),
        issue_count integer NOT NULL DEFAULT 0 CHECK (issue_count >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz NULL,
        completed_at timestamptz NULL,
        failure_reason text NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((state = 'pending') = (status IS NULL)),
        CHECK ((state = 'pending') = (completed_at IS NULL))
      )`);
    await q.query(`CREATE INDEX render_jobs_org_created_at_idx ON render_jobs (organisation_id, created_at)`);
    // Queue capacity checks and stuck-job sweeps look only at pending jobs.
    await q.query(`CREATE INDEX render_jobs_pending_idx ON render_jobs (created_at) WHERE state = 'pending'`);

    await q.query(`
      CREATE TABLE render_job_issues (
        job_id uuid NOT NULL REFERENCES render_jobs (id) ON DELETE CASCADE,
        position integer NOT NULL CHECK (position >= 0 AND position < 100),
        type text NOT NULL,
        severity text NOT NULL CHECK (severity IN ('Information', 'Warning', 'Error')),
        description text NOT NULL,
        element_id text NULL,
        document_index integer NULL,
        PRIMARY KEY (job_id, position)
      )`);

    await q.query(`
      CREATE TABLE documents (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        template_id uuid NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
        version_number integer NOT NULL,
        environment text NOT NULL CHECK (environment IN ('test', 'production')),
        language text NULL,
        document_name text NOT NULL,
        document_type text NOT NULL CHECK (document_type IN ('Template', 'Invoice')),
        pdf_blob_key text NOT NULL,
        file_size_bytes integer NOT NULL CHECK (file_size_bytes >= 0),
        page_count integer NOT NULL CHECK (page_count >= 0),
        rendered_at timestamptz NOT NULL,
        render_duration_ms integer NOT NULL CHECK (render_duration_ms >= 0),
        is_pdf_deleted boolean NOT NULL DEFAULT false,
        render_job_id uuid NULL REFERENCES render_jobs (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Spec 4.1 documents: default sort renderedAt; documentName sort/search; template.guid filter; created/updated.
    await q.query(`CREATE INDEX documents_org_rendered_at_idx ON documents (organisation_id, rendered_at, id)`);
    await q.query(`CREATE INDEX documents_org_template_rendered_at_idx ON documents (organisation_id, template_id, rendered_at, id)`);
    await q.query(`CREATE INDEX documents_org_name_idx ON documents (organisation_id, document_name, id)`);
    await q.query(`CREATE INDEX documents_org_created_at_idx ON documents (organisation_id, created_at, id)`);
    await q.query(`CREATE INDEX documents_org_updated_at_idx ON documents (organisation_id, updated_at, id)`);
    // Retention purge: PDFs still stored, oldest first.
    await q.query(`CREATE INDEX documents_retention_idx ON documents (rendered_at) WHERE is_pdf_deleted = false`);
    await q.query(`CREATE INDEX documents_render_job_idx ON documents (render_job_id) WHERE render_job_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE render_job_documents (
        job_id uuid NOT NULL REFERENCES render_jobs (id) ON DELETE CASCADE,
        document_index integer NOT NULL CHECK (document_index >= 0),
        outcome text NOT NULL CHECK (outcome IN ('rendered', 'blocked', 'failed')),
        document_id uuid NULL REFERENCES documents (id) ON DELETE SET NULL,
        issues jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (job_id, document_index)
      )`);

    await q.query(`
      CREATE TABLE outbox (
        id uuid PRIMARY KEY,
        message_name text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz NULL
      )`);
    // The relay reads unpublished messages oldest first.
    await q.query(`CREATE INDEX outbox_unpublished_idx ON outbox (created_at) WHERE published_at IS NULL`);
    await q.query(`CREATE INDEX outbox_published_at_idx ON outbox (published_at) WHERE published_at IS NOT NULL`);

    await q.query(`
      CREATE TABLE usage_periods (
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        pages_used integer NOT NULL DEFAULT 0 CHECK (pages_used >= 0),
        tokens_used integer NOT NULL DEFAULT 0 CHECK (tokens_used >= 0),
        PRIMARY KEY (organisation_id, period_start)
      )`);

    await q.query(`
      CREATE TABLE font_families (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        family text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz NULL
      )`);
    // One live family per name (case-insensitive) in an organisation.
    await q.query(
      `CREATE UNIQUE INDEX font_families_live_name_idx ON font_families (organisation_id, lower(family)) WHERE deleted_at IS NULL`,
    );

    await q.query(`
      CREATE TABLE font_files (
        id uuid PRIMARY KEY,
        font_family_id uuid NOT NULL REFERENCES font_families (id) ON DELETE CASCADE,
        weight integer NOT NULL CHECK (weight BETWEEN 1 AND 1000),
        style text NOT NULL CHECK (style IN ('normal', 'italic')),
        format text NOT NULL CHECK (format IN ('woff2', 'woff', 'ttf', 'otf')),
        blob_key text NOT NULL,
        file_size_bytes integer NOT NULL CHECK (file_size_bytes >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (font_family_id, weight, style)
      )`);

    // Sliding-window rate limiting: one row per permit. UNLOGGED: permits are worthless after 60 s, so they skip
    // the WAL (faster inserts) and a crash merely empties the table.
    await q.query(`
      CREATE UNLOGGED TABLE rate_limit_permits (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        organisation_id uuid NOT NULL,
        category text NOT NULL,
        permitted_at timestamptz NOT NULL
      )`);
    // Counting the permits of (organisation, category) in the last 60 s, and pruning old ones.
    await q.query(`CREATE INDEX rate_limit_permits_window_idx ON rate_limit_permits (organisation_id, category, permitted_at)`);
    await q.query(`CREATE INDEX rate_limit_permits_permitted_at_idx ON rate_limit_permits (permitted_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'rate_limit_permits',
      'font_files',
      'font_families',
      'usage_periods',
      'outbox',
      'render_job_documents',
      'documents',
      'render_job_issues',
      'render_jobs',
      'template_versions',
      'templates',
      'projects',
      'webhook_secrets',
      'api_keys',
      'organisations',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
