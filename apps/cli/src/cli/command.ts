import type { ParseArgsConfig } from 'node:util';
import type { DocrenderClient } from '@docrender/client';
import type { CliIo } from './cli-io';
import type { Output } from '../output/output';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** Parsed option values: strings, booleans, or lists for `multiple` options. */
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export type CommandContext = {
  io: CliIo;
  output: Output;
  /** The command line as given (command words first), for hints that repeat it. */
  argv: readonly string[];
  /** Command positionals (after the command words). */
  positionals: string[];
  values: OptionValues;
  /** The client, made on first use (commands that need no key never ask). */
  client(): DocrenderClient;
};

/** One command of the CLI: its words (`documents list`), usage, own options and action. Returns the exit code. */
export type CommandDefinition = {
  words: readonly string[];
  summary: string;
  /** `<templateId> --data <file>` */
  arguments: string;
  /** Help lines for the options, `[flag, description]`. */
  help: readonly (readonly [string, string])[];
  options: OptionSpec;
  run(context: CommandContext): Promise<number>;
};
