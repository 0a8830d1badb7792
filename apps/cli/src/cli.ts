import { parseArgs } from 'node:util';
import { CLIENT_VERSION, DocrenderClient, DocrenderError } from '@docrender/client';
import { COMMANDS } from './commands';
import type { CommandDefinition, OptionSpec, OptionValues } from './cli/command';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliIo } from './cli/cli-io';
import { helpText, PROGRAM } from './cli/help';
import { flag, integerOption, stringOption } from './cli/option-values';
import { UsageError } from './cli/usage.error';
import { Output } from './output/output';

export const DEFAULT_BASE_URL = 'http://localhost:3000';

const GLOBAL_OPTIONS: OptionSpec = {
  key: { type: 'string' },
  'base-url': { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** Renders can take far longer than reads: their time limit is this multiple of --timeout, and at least 10 minutes. */
const RENDER_TIMEOUT_FACTOR = 10;
const MIN_RENDER_TIMEOUT_MS = 600_000;

/**
 * Runs one CLI command (`render`, `validate`, `templates list`, `documents list|download`, `jobs wait`, `stats`; or
 * `--version` alone; the repository's
 * build adds `check`, main.repository.ts) and returns its exit code. Errors print one line `error: …` on stderr (with --json as well, so stdout stays a single JSON document or
 * nothing): service errors with status and code, usage errors with exit code 2.
 */
export async function runCli(argv: readonly string[], io: CliIo, commands: readonly CommandDefinition[] = COMMANDS): Promise<number> {
  const commandAt = (words: readonly string[]): CommandDefinition | null => commands.find((c) => c.words.every((word, i) => words[i] === word)) ?? null;
  const command = commandAt(argv);
  if (!command) {
    if (argv.length === 1 && ['--version', '-V', 'version'].includes(argv[0])) {
      io.stdout(`${PROGRAM} ${CLIENT_VERSION}\n`);
      return EXIT_OK;
    }
    if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0])) {
      io.stdout(helpText(commands, commandAt(argv.slice(1)) ?? undefined));
      return EXIT_OK;
    }
    io.stderr(`error: unknown command '${argv.slice(0, 2).join(' ')}' (commands: ${commands.map((c) => c.words.join(' ')).join(', ')})\n`);
    return EXIT_USAGE;
  }
  let values: OptionValues;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv.slice(command.words.length), options: { ...GLOBAL_OPTIONS, ...command.options }, allowPositionals: true, strict: true }));
  } catch (error) {
    io.stderr(`error: ${(error as Error).message.split('\n')[0]}\n`);
    return EXIT_USAGE;
  }
  if (flag(values, 'help')) {
    io.stdout(helpText(commands, command));
    return EXIT_OK;
  }
  const output = new Output(io, flag(values, 'json'), flag(values, 'quiet'));
  try {
    let client: DocrenderClient | undefined;
    return await command.run({ io, output, argv, positionals, values, client: () => (client ??= makeClient(values, io)) });
  } catch (error) {
    io.stderr(`error: ${describe(error)}\n`);
    return error instanceof UsageError ? EXIT_USAGE : EXIT_FAILED;
  }
}

function makeClient(values: OptionValues, io: CliIo): DocrenderClient {
  const apiKey = stringOption(values, 'key') ?? io.env.SERVICE_API_KEY;
  if (apiKey === undefined || apiKey.trim() === '') throw new UsageError('no API key: set SERVICE_API_KEY or pass --key');
  const baseUrl = stringOption(values, 'base-url') ?? io.env.SERVICE_BASE_URL ?? DEFAULT_BASE_URL;
  const timeoutMs = integerOption(values, 'timeout', 1);
  try {
    return new DocrenderClient({
      baseUrl,
      apiKey,
      timeoutMs,
      renderTimeoutMs: timeoutMs === undefined ? undefined : Math.max(MIN_RENDER_TIMEOUT_MS, timeoutMs * RENDER_TIMEOUT_FACTOR),
      userAgent: 'docrender-cli',
      onWarning: (warning) => io.stderr(`warning: ${warning.message}\n`),
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The command whose words start the arguments (`documents list …`), or null. */
function describe(error: unknown): string {
  if (error instanceof DocrenderError || error instanceof UsageError) return error.message;
  if (error instanceof Error) return error.message.split('\n')[0] || error.name;
  return String(error);
}
