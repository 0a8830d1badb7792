import { defineCommand } from '../cli/command';

export const migrateCommand = defineCommand({
  name: 'migrate',
  summary: 'Apply pending database migrations (every command does this first) and print their names.',
  prepare: () => ({}),
  run: async (_input, context) => ({ applied: context.appliedMigrations }),
});
