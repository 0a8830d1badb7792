import * as config from '@docrender/config';
import type { Setting } from '@docrender/config';
import { platformSettings } from '@docrender/platform';
import { jobWorkerSettings } from '@docrender/job-worker';
import { webhookDispatcherSettings } from '@docrender/webhook-dispatcher';
import { standaloneSettings } from './standalone.settings';

const isSetting = (value: unknown): value is Setting<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as Setting<unknown>).env === 'string' && typeof (value as Setting<unknown>).parse === 'function';

const isSettingsSpec = (value: unknown): value is Record<string, Setting<unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).length > 0 && Object.values(value).every(isSetting);

/** Every setting of every app, once per variable (several apps share e.g. DATABASE_URL), sorted by variable. */
export function allSettings(): Setting<unknown>[] {
  const fromConfigLib = (Object.values(config) as unknown[]).filter(isSettingsSpec);
  const specs: Record<string, Setting<unknown>>[] = [
    ...fromConfigLib,
    platformSettings,
    jobWorkerSettings,
    webhookDispatcherSettings,
    standaloneSettings,
  ];
  const byEnv = new Map<string, Setting<unknown>>();
  for (const spec of specs) for (const s of Object.values(spec)) if (!byEnv.has(s.env)) byEnv.set(s.env, s);
  return [...byEnv.values()].sort((a, b) => a.env.localeCompare(b.env));
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The README's configuration table (between the settings-table markers). */
export function settingsTable(): string {
  const rows = allSettings().map((s) => `| \`${s.env}\` | ${cell(s.defaultText)} | ${cell(s.description)} |`);
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

export const TABLE_START = '<!-- settings-table:start -->';
export const TABLE_END = '<!-- settings-table:end -->';

/** The README text with its configuration table replaced by the current one. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README has no ${TABLE_START} … ${TABLE_END} block`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${readme.slice(end)}`;
}
