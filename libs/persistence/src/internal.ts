// '@docrender/persistence/internal': the raw TypeORM connection, for libs/testing and tests only — they set up
// scenarios with SQL over the same pool as the Database under test. The lint refuses this entry in production code
// outside libs/persistence and libs/testing (eslint.config.mjs; shown by tools/lint-probes.mjs).
export { connectDataSource, runMigrations } from './data-source';
