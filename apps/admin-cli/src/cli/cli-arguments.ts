import { parseArgs } from 'node:util';

/** A bad or missing argument; the message starts with the argument's name (`--org: not a UUID …`). Exit code 2. */
export class UsageError extends Error {
  constructor(
    readonly argument: string,
    problem: string,
  ) {
    super(`${argument}: ${problem}`);
    this.name = 'UsageError';
  }
}

export type OptionSpec = {
  /** `string` options take a value; `boolean` ones are flags. */
  type: 'string' | 'boolean';
  /** May be given several times (string options only). */
  multiple?: boolean;
  /** Shown in the help, e.g. `<uuid>`. */
  valueName?: string;
  description: string;
};

export type OptionSpecs = Record<string, OptionSpec>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The parsed arguments of one command with typed, validating accessors; every error names its argument. */
export class CommandArguments {
  private constructor(
    private readonly values: Record<string, string | boolean | string[] | undefined>,
    private readonly positionals: string[],
  ) {}

  /** Parses `argv` (after the command name) against the command's options; unknown options are usage errors. */
  static parse(argv: string[], options: OptionSpecs, positionalNames: readonly string[]): CommandArguments {
    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({
        args: argv,
        options: Object.fromEntries(Object.entries(options).map(([name, spec]) => [name, { type: spec.type, multiple: spec.multiple ?? false }])),
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw usageErrorFromParseArgs(error);
    }
    if (parsed.positionals.length > positionalNames.length) {
      const extra = parsed.positionals[positionalNames.length];
      throw new UsageError(extra, positionalNames.length === 0 ? 'unexpected argument' : `unexpected extra argument after <${positionalNames.join('> <')}>`);
    }
    return new CommandArguments(parsed.values as Record<string, string | boolean | string[] | undefined>, parsed.positionals);
  }

  optionalString(name: string): string | undefined {
    const value = this.values[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name}`, 'must not be empty');
    return value;
  }

  string(name: string): string {
    const value = this.optionalString(name);
    if (value === undefined) throw new UsageError(`--${name}`, 'is required');
    return value;
  }

  uuid(name: string): string {
    return checkUuid(`--${name}`, this.string(name));
  }

  optionalUuid(name: string): string | undefined {
    const value = this.optionalString(name);
    return value === undefined ? undefined : checkUuid(`--${name}`, value);
  }

  /** A whole number in [min, max]; `defaultValue` when absent. */
  int(name: string, defaultValue: number, range: { min: number; max?: number }): number {
    const value = this.optionalString(name);
    return value === undefined ? defaultValue : parseWhole(`--${name}`, value, range.min, range.max ?? 2_147_483_647);
  }

  optionalInt(name: string, range: { min: number; max?: number }): number | undefined {
    const value = this.optionalString(name);
    return value === undefined ? undefined : parseWhole(`--${name}`, value, range.min, range.max ?? 2_147_483_647);
  }

  oneOf<const T extends string>(name: string, allowed: readonly T[]): T {
    const value = this.string(name);
    if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name}`, `must be one of ${allowed.join(', ')}, got '${value}'`);
    return value as T;
  }

  flag(name: string): boolean {
    return this.values[name] === true;
  }

  list(name: string): string[] {
    const value = this.values[name];
    return Array.isArray(value) ? value : [];
  }

  has(name: string): boolean {
    return this.values[name] !== undefined;
  }

  positional(index: number, name: string): string {
    const value = this.positionals[index];
    if (value === undefined || value.trim() === '') throw new UsageError(`<${name}>`, 'is required');
    return value;
  }
}

function checkUuid(argument: string, value: string): string {
  if (!UUID.test(value)) throw new UsageError(argument, `must be a UUID, got '${value}'`);
  return value.toLowerCase();
}

function parseWhole(argument: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(argument, `must be a whole number from ${min} to ${max}, got '${raw}'`);
  }
  return value;
}

/** Turns node:util parseArgs errors into one-line usage errors naming the option. */
function usageErrorFromParseArgs(error: unknown): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? '(arguments)';
  const code = (error as { code?: string }).code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(option, 'unknown option');
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/argument missing/.test(message)) return new UsageError(option, 'needs a value');
    if (/ambiguous/.test(message)) return new UsageError(option, `a value starting with '-' must be written ${option}=<value>`);
    if (/does not take an argument/.test(message)) return new UsageError(option, 'takes no value');
  }
  return new UsageError(option, message.split('\n')[0]);
}
