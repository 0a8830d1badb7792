import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { postgresAnswers } from '@docrender/persistence';
import { ensureBuilt, REPO_ROOT, runAppCommand, type CommandRun } from '@docrender/testing';

const PERSISTENCE = path.join(REPO_ROOT, 'dist/libs/persistence/src/index.js');

// Starting PostgreSQL (initdb on the first run) takes a few seconds per step.
jest.setTimeout(180_000);

/** The CLI with DATABASE_URL unset: it must use the embedded PostgreSQL under `dataDir`. */
const cli = (dataDir: string, ...args: string[]): Promise<CommandRun> => runAppCommand('apps/admin-cli/src/main.js', args, { EMBEDDED_PG_DATA_DIR: dataDir });

describe('admin CLI on the embedded PostgreSQL of one-process mode', () => {
  let tmp: string;
  let dataDir: string;
  let holder: ChildProcessWithoutNullStreams | undefined;

  beforeAll(async () => {
    await ensureBuilt();
    tmp = await mkdtemp(path.join(os.tmpdir(), 'docrender-embedded-'));
    // As root the server runs as `postgres`, which must be able to pass through every parent of its data directory.
    await chmod(tmp, 0o755);
    dataDir = path.join(tmp, 'postgres');
  });
  afterAll(async () => {
    if (holder && holder.exitCode === null) {
      holder.stdin.end();
      await new Promise((resolve) => holder?.once('exit', resolve));
    }
    await rm(tmp, { recursive: true, force: true });
  });

  let organisationId: string;

  it('with DATABASE_URL unset, the CLI initialises and starts an embedded server (as root: owned by postgres), acts, and stops it', async () => {
    const run = await cli(dataDir, 'create-org', '--name', 'Embedded Ltd');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    organisationId = (JSON.parse(run.stdout) as { organisation: { id: string } }).organisation.id;

    const state = JSON.parse(await readFile(path.join(dataDir, 'embedded-postgres.json'), 'utf8')) as { port: number; password: string };
    expect(state.port).not.toBe(5432);
    if (process.getuid?.() === 0) {
      const postgresUid = Number(execFileSync('id', ['-u', 'postgres']).toString());
      expect((await stat(path.join(dataDir, 'pgdata'))).uid).toBe(postgresUid);
    }
    // The CLI started the server for itself, so it stopped it on exit.
    expect(await postgresAnswers({ connectionString: `postgres://postgres:${encodeURIComponent(state.password)}@127.0.0.1:${state.port}/docrender` })).toBe(false);
  });

  it('while another process (the service) runs the server, the CLI reuses it, finds earlier data, and leaves it running', async () => {
    holder = spawn(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(PERSISTENCE)}).startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} }).then((pg) => {
           console.log(JSON.stringify({ url: pg.url, startedHere: pg.startedHere }));
           process.stdin.on('end', () => pg.stop().then(() => process.exit(0)));
           process.stdin.resume();
         });`,
      ],
      { cwd: REPO_ROOT },
    );
    const firstLine = await new Promise<string>((resolve, reject) => {
      createInterface({ input: holder!.stdout }).once('line', resolve);
      holder!.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
    });
    const server = JSON.parse(firstLine) as { url: string; startedHere: boolean };
    expect(server.startedHere).toBe(true);

    const run = await cli(dataDir, 'create-key', '--org', organisationId, '--env', 'test');
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ organisationId, environment: 'test' });

    expect(await postgresAnswers({ connectionString: server.url })).toBe(true);
    const client = new Client({ connectionString: server.url });
    await client.connect();
    const keys = await client.query('SELECT count(*)::int AS n FROM api_keys WHERE organisation_id = $1', [organisationId]);
    await client.end();
    expect(keys.rows[0]).toEqual({ n: 1 });

    holder.stdin.end();
    await new Promise((resolve) => holder?.once('exit', resolve));
    expect(await postgresAnswers({ connectionString: server.url })).toBe(false);
  });
});
