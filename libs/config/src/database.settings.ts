import { setting } from './setting';

/**
 * The publicly known development pepper. It only keeps one-process mode and tests working out of the box;
 * every real deployment sets its own API_KEY_PEPPER (see docs/seed-file.md and docs/operations.md).
 */
export const DEV_API_KEY_PEPPER = 'dev-only-api-key-pepper-NOT-SECRET-set-API_KEY_PEPPER';

/** Database settings, shared by every app that opens the database and by the admin CLI. */
export const databaseSettings = {
  url: setting.optionalUrl(
    'DATABASE_URL',
    'PostgreSQL connection URL. Unset: an embedded PostgreSQL is started (one-process mode and the admin CLI only).',
    ['postgres', 'postgresql'],
  ),
  poolSize: setting.int('DB_POOL_SIZE', 'Maximum connections in the database pool of one process (at least 2: migrations hold one for their lock).', 10, { min: 2, max: 500 }),
  poolIdleMs: setting.int(
    'DB_POOL_IDLE_MS',
    'How long a pooled database connection may sit idle before it is closed. A connection opened again costs a new PostgreSQL backend and its prepared statements, so a process used in bursts (a job worker, the webhook dispatcher) keeps its connections between them. 0 never closes idle connections.',
    300_000,
    { min: 0, max: 86_400_000 },
  ),
  embeddedDataDir: setting.string(
    'EMBEDDED_PG_DATA_DIR',
    'Data directory of the embedded PostgreSQL used when DATABASE_URL is unset (relative paths are resolved against the working directory).',
    '.data/postgres',
  ),
  embeddedPort: setting.int(
    'EMBEDDED_PG_PORT',
    'Port of the embedded PostgreSQL; 0 picks a free port once and keeps it (recorded in the data directory).',
    0,
    { min: 0, max: 65535 },
  ),
  apiKeyPepper: setting.string(
    'API_KEY_PEPPER',
    'Server-side secret keying the HMAC-SHA256 under which API keys are stored. Changing it invalidates every stored key. The default is public and for development only.',
    DEV_API_KEY_PEPPER,
  ),
  logQueries: setting.bool('DB_LOG_QUERIES', 'Log every SQL statement (debugging only).', false),
};
