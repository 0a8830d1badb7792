import { setting } from '@docrender/config';

/** Settings every app reads at start, whatever it does. */
export const platformSettings = {
  runMigrations: setting.bool(
    'DB_RUN_MIGRATIONS',
    'Apply pending database migrations at start (safe with several replicas: they take turns under an advisory lock). Set false when a migration Job does it.',
    true,
  ),
  logLevel: setting.oneOf('LOG_LEVEL', 'Lowest level written to the JSON log.', ['debug', 'info', 'warn', 'error'] as const, 'info'),
};
