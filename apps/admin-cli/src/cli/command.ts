import type { BlobStore } from '@docrender/storage';
import type { Database, OrganisationRecord } from '@docrender/persistence';
import { CommandArguments, UsageError, type OptionSpecs } from './cli-arguments';

/** What a command may use once its arguments are valid. */
export type CliContext = {
  database: Database;
  /** The blob store of the service (created on first use: only some commands need it). */
  blobStore(): Promise<BlobStore>;
  /** Names of the migrations applied by this run (the CLI migrates before acting). */
  appliedMigrations: string[];
  now(): Date;
};

export type CommandDefinition = {
  name: string;
  summary: string;
  options: OptionSpecs;
  positionals: readonly { name: string; description: string }[];
  /** False for commands that never touch the database (help). */
  needsDatabase: boolean;
  /**
   * Validates the arguments (and reads the files they name) before anything connects, so a bad argument fails fast;
   * returns the action to run with the context.
   */
  prepare(argv: string[], baseDir: string): Promise<(context: CliContext) => Promise<unknown>>;
};

/** Declares a command: `prepare` turns arguments into an input (throwing UsageError), `run` acts and returns JSON. */
export function defineCommand<Input>(spec: {
  name: string;
  summary: string;
  options?: OptionSpecs;
  positionals?: readonly { name: string; description: string }[];
  needsDatabase?: boolean;
  prepare(args: CommandArguments, baseDir: string): Input | Promise<Input>;
  run(input: Input, context: CliContext): Promise<unknown>;
}): CommandDefinition {
  const options = spec.options ?? {};
  const positionals = spec.positionals ?? [];
  return {
    name: spec.name,
    summary: spec.summary,
    options,
    positionals,
    needsDatabase: spec.needsDatabase ?? true,
    async prepare(argv, baseDir) {
      const args = CommandArguments.parse(argv, options, positionals.map((p) => p.name));
      const input = await spec.prepare(args, baseDir);
      return (context) => spec.run(input, context);
    },
  };
}

/** The `--org` option of the commands that act on one organisation. */
export const ORG_OPTION = { org: { type: 'string', valueName: '<uuid>', description: 'the organisation (required)' } } as const;

/** The live organisation named by an argument; a usage error naming the argument otherwise. */
export async function liveOrganisation(context: CliContext, id: string, argument = '--org'): Promise<OrganisationRecord> {
  const organisation = await context.database.organisations.findById(id);
  if (!organisation) throw new UsageError(argument, `no organisation ${id}`);
  if (organisation.deletedAt) throw new UsageError(argument, `organisation ${id} was deleted`);
  return organisation;
}
