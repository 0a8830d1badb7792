import type { BlobStore } from '@docrender/storage';
import type { Database, OrganisationRecord } from '@docrender/persistence';
import { CommandArguments, UsageError, type OptionSpec, type OptionSpecs } from './cli-arguments';

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

/**
 * The option specs the commands share, by the kind of value they take: the kind fixes the value name the help shows
 * (`--template <uuid>`, `--name <text>`, `--version <n>`).
 */
export const option = {
  uuid: (description: string): OptionSpec => ({ type: 'string', valueName: '<uuid>', description }),
  text: (description: string): OptionSpec => ({ type: 'string', valueName: '<text>', description }),
  count: (description: string): OptionSpec => ({ type: 'string', valueName: '<n>', description }),
  /** A string option whose value the help names `valueName` (`<file.json>`, `test|production`). */
  value: (valueName: string, description: string): OptionSpec => ({ type: 'string', valueName, description }),
  flag: (description: string): OptionSpec => ({ type: 'boolean', description }),
};

/** The `--org` option of the commands that act on one organisation. */
export const ORG_OPTION = { org: option.uuid('the organisation (required)') };

type OrganisationInput = { organisationId: string };

type OrganisationCommandSpec<Input> = {
  name: string;
  summary: string;
  options?: OptionSpecs;
  /** Reads `--org` among the other arguments, in the order their errors should be reported. Default: `--org` alone. */
  prepare?(args: CommandArguments, baseDir: string): Input | Promise<Input>;
  run(input: Input, context: CliContext): Promise<unknown>;
};

/**
 * Declares a command that acts on one live organisation: `--org` comes first among its options, and `run` is reached
 * only once the organisation exists and is not deleted (a usage error naming `--org` otherwise).
 */
export function defineOrganisationCommand(spec: OrganisationCommandSpec<OrganisationInput> & { prepare?: undefined }): CommandDefinition;
export function defineOrganisationCommand<Input extends OrganisationInput>(spec: Required<Pick<OrganisationCommandSpec<Input>, 'prepare'>> & OrganisationCommandSpec<Input>): CommandDefinition;
export function defineOrganisationCommand(spec: OrganisationCommandSpec<OrganisationInput>): CommandDefinition {
  return defineCommand({
    ...spec,
    options: { ...ORG_OPTION, ...spec.options },
    prepare: spec.prepare ?? ((args) => ({ organisationId: args.uuid('org') })),
    async run(input, context) {
      await liveOrganisation(context, input.organisationId);
      return spec.run(input, context);
    },
  });
}

/** The live organisation named by `--org`; a usage error naming `--org` otherwise. */
async function liveOrganisation(context: CliContext, id: string): Promise<OrganisationRecord> {
  const organisation = await context.database.organisations.findById(id);
  if (!organisation) throw new UsageError('--org', `no organisation ${id}`);
  if (organisation.deletedAt) throw new UsageError('--org', `organisation ${id} was deleted`);
  return organisation;
}
