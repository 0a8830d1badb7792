import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MinioBlobStore } from '@docrender/storage';
import {
  createTestDatabase,
  ensureBuilt,
  freePort,
  startReadyAppProcess,
  startS3Server,
  startTestInfrastructure,
  statusUrl,
  TEST_API_KEY_PEPPER,
  type TestDatabase,
  type TestInfrastructure,
} from '@docrender/testing';

export { ensureBuilt, freePort };

/** A spec file's own database and blob folder, and the gateway settings that select them. */
export type GatewayResources = {
  db: TestDatabase;
  blobDir: string;
  /** DATABASE_URL, API_KEY_PEPPER, BLOB_DIR and a small DB_POOL_SIZE: add what the spec needs. */
  settings: Record<string, string>;
  /** Drops the database and deletes the blob folder. */
  remove(): Promise<void>;
};

/** Where a spec's gateway keeps its blobs: the settings that select it and how to remove it. */
type BlobStorage = { settings: Record<string, string>; remove(): Promise<void> };

/**
 * Builds the apps if needed, then makes a fresh test database beside `storage`: the settings that select both (with
 * DB_POOL_SIZE `poolSize`) and one removal for both.
 */
async function withTestDatabase<T extends BlobStorage>(storage: T, poolSize: number): Promise<T & { db: TestDatabase }> {
  await ensureBuilt();
  const db = await createTestDatabase();
  return {
    ...storage,
    db,
    settings: { DATABASE_URL: db.url, API_KEY_PEPPER: TEST_API_KEY_PEPPER, DB_POOL_SIZE: String(poolSize), ...storage.settings },
    remove: async () => {
      await db.drop();
      await storage.remove();
    },
  };
}

/** A fresh test database and blob folder for one spec file (`label` names the folder). */
export async function gatewayResources(label: string): Promise<GatewayResources> {
  const blobDir = await mkdtemp(path.join(tmpdir(), `gateway-${label}-`));
  return withTestDatabase({ blobDir, settings: { BLOB_DIR: blobDir }, remove: () => rm(blobDir, { recursive: true, force: true }) }, 3);
}

/** A spec file's own database and S3 server (with `bucket`), and the gateway settings that select them. */
export type GatewayS3Resources = {
  db: TestDatabase;
  /** The bucket, for the spec's own objects. */
  blobs: MinioBlobStore;
  /** DATABASE_URL, API_KEY_PEPPER, DB_POOL_SIZE and the S3_* settings: add what the spec needs. */
  settings: Record<string, string>;
  /** Drops the database and stops the S3 server. */
  remove(): Promise<void>;
};

/** A fresh test database and S3 server with `bucket` for one spec file. */
export async function gatewayS3Resources(bucket: string): Promise<GatewayS3Resources> {
  const s3 = await startS3Server();
  const blobs = new MinioBlobStore({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket, region: 'us-east-1' });
  await blobs.ensureBucket();
  const settings = { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: bucket };
  return withTestDatabase({ blobs, settings, remove: () => s3.stop() }, 4);
}

export type GatewayProcess = {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  port: number;
  /** The process id (e.g. to read its memory from /proc). */
  pid: number;
  /** Everything the process wrote so far (JSON log lines), for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process has exited. */
  stop(): Promise<void>;
};

/**
 * Starts `node dist/apps/api-gateway/src/main.js` as its own process with exactly the given settings (plus PATH and
 * HOME; nothing else is inherited, so the machine's environment cannot leak in) and waits until its readiness probe
 * answers 200. Call ensureBuilt() first.
 */
export async function startGateway(settings: Record<string, string>): Promise<GatewayProcess> {
  const port = settings.PORT ? Number(settings.PORT) : await freePort();
  const child = await startReadyAppProcess('apps/api-gateway/src/main.js', { ...settings, PORT: String(port) }, statusUrl(port), 60_000);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    output: () => child.output(),
    stop: async () => {
      await child.stop('SIGTERM', 10_000);
    },
  };
}

/** What a spec file's gateways run on: its own database (and blob storage), the settings that select them, their removal. */
type OwnResources = { db: TestDatabase; settings: Record<string, string>; remove(): Promise<void> };

/** A spec file's own test infrastructure (PostgreSQL, RabbitMQ, S3; `label` names it), as what its gateways run on. */
export async function gatewayTestInfrastructure(label: string): Promise<OwnResources & { infra: TestInfrastructure }> {
  await ensureBuilt();
  const infra = await startTestInfrastructure(label);
  return { infra, db: infra.db, settings: infra.env, remove: () => infra.teardown() };
}

/** A spec file's own resources and the gateway processes it starts on them. */
export type OwnGateways<R extends OwnResources> = {
  /** The spec file's resources; read them in a hook or a test (they are made before all tests). */
  readonly resources: R;
  readonly db: TestDatabase;
  /** A gateway process on the spec file's resources, with `settings` added to theirs; it is stopped after all tests. */
  startGateway(settings?: Record<string, string>): Promise<GatewayProcess>;
  /** The process `starting` starts (e.g. a render service), stopped after all tests with the gateways. */
  stopsAfterAll<P extends Stoppable>(starting: Promise<P>): Promise<P>;
};

type Stoppable = { stop(): Promise<void> };

/**
 * Registers a spec file's set-up and clean-up around gateway processes on resources of its own (gatewayResources,
 * gatewayS3Resources or gatewayTestInfrastructure): before all its tests, `make` makes them; after all, every process
 * started through it is stopped, then the resources are removed. Call it in the describe block, before the spec's own hooks.
 */
export function gatewaysOnOwnResources<R extends OwnResources>(make: () => Promise<R>): OwnGateways<R> {
  let resources: R | undefined;
  const processes: Stoppable[] = [];
  beforeAll(async () => {
    resources = await make();
  });
  afterAll(async () => {
    await Promise.all(processes.map((started) => started.stop()));
    await resources?.remove();
  });
  const made = (): R => {
    if (!resources) throw new Error("the spec file's resources are made before all tests: read them in a hook or a test");
    return resources;
  };
  const stopsAfterAll = async <P extends Stoppable>(starting: Promise<P>): Promise<P> => {
    const started = await starting;
    processes.push(started);
    return started;
  };
  return {
    get resources() {
      return made();
    },
    get db() {
      return made().db;
    },
    startGateway: (settings = {}) => stopsAfterAll(startGateway({ ...made().settings, ...settings })),
    stopsAfterAll,
  };
}
