/**
 * One environment setting: its variable name, default, documentation and parser.
 * Every setting of every app is declared with these, so start-up validation and the README's settings table
 * come from one place (see `allSettings` in settings-catalog.ts).
 */
export type Setting<T> = {
  env: string;
  description: string;
  /** Shown in the README; undefined means "no default" (required, or unset means disabled). */
  defaultText: string;
  parse(raw: string | undefined): T;
};

export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

const present = (raw: string | undefined): raw is string => raw !== undefined && raw.trim() !== '';

/** A setting that is `defaultValue` when unset or blank, else what `parse` makes of its trimmed value (`raw` for messages). */
function withDefault<T>(env: string, description: string, defaultValue: T, parse: (value: string, raw: string) => T): Setting<T> {
  return { env, description, defaultText: String(defaultValue), parse: (raw) => (present(raw) ? parse(raw.trim(), raw) : defaultValue) };
}

/** `value` when it is a number (`whole`: an integer) within `range`; a ConfigError naming the variable otherwise. */
function inRange(env: string, value: number, raw: string, range: { min: number; max: number }, whole: boolean): number {
  if (!(whole ? Number.isInteger(value) : Number.isFinite(value)) || value < range.min || value > range.max) {
    throw new ConfigError(env, `must be ${whole ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}, got '${raw}'`);
  }
  return value;
}

export const setting = {
  string(env: string, description: string, defaultValue: string): Setting<string> {
    return { env, description, defaultText: defaultValue === '' ? '(empty)' : defaultValue, parse: (raw) => (present(raw) ? raw.trim() : defaultValue) };
  },

  /** A string setting whose value, the default included, `problem` accepts (null) or refuses (why, for the message). */
  checkedString(env: string, description: string, defaultValue: string, problem: (value: string) => string | null): Setting<string> {
    const base = setting.string(env, description, defaultValue);
    return {
      ...base,
      parse(raw) {
        const value = base.parse(raw);
        const refused = problem(value);
        if (refused !== null) throw new ConfigError(env, refused);
        return value;
      },
    };
  },

  optionalString(env: string, description: string): Setting<string | undefined> {
    return { env, description, defaultText: '(unset)', parse: (raw) => (present(raw) ? raw.trim() : undefined) };
  },

  int(env: string, description: string, defaultValue: number, range: { min: number; max: number }): Setting<number> {
    return withDefault(env, description, defaultValue, (value, raw) => inRange(env, Number(value), raw, range, true));
  },

  number(env: string, description: string, defaultValue: number, range: { min: number; max: number }): Setting<number> {
    return withDefault(env, description, defaultValue, (value, raw) => inRange(env, Number(value), raw, range, false));
  },

  bool(env: string, description: string, defaultValue: boolean): Setting<boolean> {
    return withDefault(env, description, defaultValue, (value, raw) => {
      const v = value.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(v)) return true;
      if (['false', '0', 'no', 'off'].includes(v)) return false;
      throw new ConfigError(env, `must be true or false, got '${raw}'`);
    });
  },

  oneOf<const T extends string>(env: string, description: string, values: readonly T[], defaultValue: T): Setting<T> {
    return withDefault(env, description, defaultValue, (value, raw) => {
      if (!values.includes(value as T)) throw new ConfigError(env, `must be one of ${values.join(', ')}, got '${raw}'`);
      return value as T;
    });
  },

  /** A URL with one of the given protocols; unset gives undefined (the feature falls back to its embedded default). */
  optionalUrl(env: string, description: string, protocols: readonly string[]): Setting<string | undefined> {
    return {
      env,
      description,
      defaultText: '(unset)',
      parse(raw) {
        if (!present(raw)) return undefined;
        let url: URL;
        try {
          url = new URL(raw.trim());
        } catch {
          throw new ConfigError(env, `must be a URL (${protocols.join(' or ')}), got '${redact(raw)}'`);
        }
        if (!protocols.includes(url.protocol.replace(/:$/, ''))) {
          throw new ConfigError(env, `must use ${protocols.join(' or ')}, got '${url.protocol}'`);
        }
        return raw.trim();
      },
    };
  },
};

/** Hides a password in a URL before it appears in an error message. */
export function redact(raw: string): string {
  return raw.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@');
}

export type SettingsSpec = Record<string, Setting<unknown>>;
export type ConfigOf<S extends SettingsSpec> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

/** Parses every setting of a spec; the first bad value throws a ConfigError naming its variable. */
export function loadSettings<S extends SettingsSpec>(spec: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(spec)) out[key] = s.parse(env[s.env]);
  return out as ConfigOf<S>;
}
