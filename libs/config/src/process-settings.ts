import { ConfigError, ConfigOf, loadSettings, SettingsSpec } from './setting';

/**
 * Settings that were renamed, with the name that replaced them. Still set, they would be ignored without a word (an
 * operator's 30 s budget silently back at 60 s), so a process that finds one refuses to start and names the new one.
 */
export const RETIRED_SETTINGS: Readonly<Record<string, { replacement: string; why: string }>> = {
  RENDER_TIMEOUT_MS: { replacement: 'RENDER_BUDGET_MS', why: 'one render budget for every service' },
  RENDER_API_RENDER_BUDGET_MS: { replacement: 'RENDER_BUDGET_MS', why: 'one render budget for every service' },
  RENDER_API_REPLY_GRACE_MS: { replacement: 'RENDER_REPLY_GRACE_MS', why: 'one reply grace for every sender' },
  JOBS_RENDER_REPLY_GRACE_MS: { replacement: 'RENDER_REPLY_GRACE_MS', why: 'one reply grace for every sender' },
};

/**
 * The settings one process runs with: the specs its apps declare, read from its environment once, at start (the
 * first bad value throws a ConfigError naming its variable). Apps and their modules take settings from here (the
 * platform makes it injectable as `Settings`), never from process.env.
 */
export class Settings {
  private constructor(private readonly loaded: ReadonlyMap<SettingsSpec, unknown>) {}

  /** Reads every spec of `specs` from `env` now. */
  static load(specs: Iterable<SettingsSpec>, env: NodeJS.ProcessEnv): Settings {
    for (const [retired, { replacement, why }] of Object.entries(RETIRED_SETTINGS)) {
      if (env[retired] !== undefined) throw new ConfigError(retired, `no longer read; set ${replacement} instead (${why})`);
    }
    const loaded = new Map<SettingsSpec, unknown>();
    for (const spec of specs) if (!loaded.has(spec)) loaded.set(spec, loadSettings(spec, env));
    return new Settings(loaded);
  }

  /** The values of a spec read at start; a spec nobody declared is a programming error, found when the app starts. */
  get<S extends SettingsSpec>(spec: S): ConfigOf<S> {
    if (!this.loaded.has(spec)) {
      throw new Error(`settings ${Object.values(spec).map((s) => s.env).join(', ')} were not read at start: declare them in the service definition's settings`);
    }
    return this.loaded.get(spec) as ConfigOf<S>;
  }

  /** Whether this process reads `variable` (e.g. a secret whose public development value it must refuse). */
  reads(variable: string): boolean {
    for (const spec of this.loaded.keys()) if (Object.values(spec).some((s) => s.env === variable)) return true;
    return false;
  }
}
