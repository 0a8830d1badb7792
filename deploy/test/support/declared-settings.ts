import type { Setting } from '@docrender/config';
import { allSettings } from '../../../apps/standalone/src/settings-catalog';

/** Variables a deployment may set that are not settings of the apps, with what reads them. */
const OTHER_VARIABLES: Record<string, string> = {
  BUILD_VERSION: 'the version GET /v1/meta/version reports (libs/platform build-version.ts), set by the image build',
};

const byName = new Map(allSettings().map((s) => [s.env, s]));

/** The setting an app reads from variable `name`; throws when no app declares it. */
export function declaredSetting(name: string): Setting<unknown> {
  const setting = byName.get(name);
  if (!setting) throw new Error(`no app declares the setting ${name}`);
  return setting;
}

/**
 * What is wrong with an app container's environment: a variable no app declares (a typo, or a setting that was
 * renamed), or a value its setting refuses (the app would stop at start-up naming it). Values from Secrets the
 * manifests do not contain are `undefined` and only their names are checked.
 */
export function environmentProblems(environment: ReadonlyMap<string, string | undefined>): string[] {
  const problems: string[] = [];
  for (const [name, value] of environment) {
    const setting = byName.get(name);
    if (!setting) {
      if (!(name in OTHER_VARIABLES)) problems.push(`${name} is not a setting of any app (libs/config, apps/*/src/*.settings.ts)`);
      continue;
    }
    if (value === undefined) continue;
    try {
      setting.parse(value);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return problems;
}
