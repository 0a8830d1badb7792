import path from 'node:path';
import { databaseSettings, loadSettings, storageSettings } from '@docrender/config';
import { Database, locateDatabase, SeedFileError, type DatabaseLocation } from '@docrender/persistence';
import { createBlobStore, type BlobStore } from '@docrender/storage';
import { UsageError } from './cli/cli-arguments';
import { helpText } from './cli/help';
import { COMMANDS } from './commands';

export type CliIo = {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Where `.data/…` defaults resolve (the repository root under `npm run`). */
  cwd: string;
  /** Where file arguments resolve: the directory the operator typed the command in (npm's INIT_CWD). */
  baseDir: string;
};

/** Exit codes: 0 done, 1 failed, 2 bad argument (or seed entry). */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    baseDir: process.env.INIT_CWD ?? process.cwd(),
  };
}

/**
 * Runs one admin command: validates its arguments, opens the database (DATABASE_URL, or the embedded server —
 * reused when one-process mode is running, started for the command otherwise), applies pending migrations, acts,
 * and prints the result as JSON. Errors print one line `error: <argument>: <problem>`. Returns the exit code.
 */
export async function runAdminCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const only = COMMANDS.find((c) => c.name === rest[0]);
    io.stdout(helpText(COMMANDS, only));
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(`error: ${name}: unknown command (commands: ${COMMANDS.map((c) => c.name).join(', ')})\n`);
    return EXIT_USAGE;
  }

  let location: DatabaseLocation | undefined;
  let database: Database | undefined;
  try {
    const action = await command.prepare(rest, io.baseDir);
    const settings = loadSettings(databaseSettings, io.env);
    location = await locateDatabase({
      url: settings.url,
      embeddedDataDir: path.resolve(io.cwd, settings.embeddedDataDir),
      embeddedPort: settings.embeddedPort,
    });
    database = await Database.open({
      url: location.url,
      poolSize: Math.min(settings.poolSize, 4),
      logQueries: settings.logQueries,
      applicationName: 'admin-cli',
      apiKeyPepper: settings.apiKeyPepper,
      migrate: false,
    });
    const appliedMigrations = await database.migrate();
    let blobStore: Promise<BlobStore> | undefined;
    const result = await action({
      database,
      blobStore: () => (blobStore ??= createBlobStore(resolveBlobDir(loadSettings(storageSettings, io.env), io.cwd))),
      appliedMigrations,
      now: () => new Date(),
    });
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT_OK;
  } catch (error) {
    io.stderr(`error: ${oneLine(error)}\n`);
    return error instanceof UsageError || error instanceof SeedFileError ? EXIT_USAGE : EXIT_FAILED;
  } finally {
    await database?.close();
    await location?.release();
  }
}

function resolveBlobDir<S extends { blobDir: string }>(settings: S, cwd: string): S {
  return { ...settings, blobDir: path.resolve(cwd, settings.blobDir) };
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].trim() || (error instanceof Error ? error.name : 'unknown error');
}
