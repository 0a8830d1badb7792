// The raw TypeORM connection (createDataSource, connectDataSource, createRepositories over an entity manager) is not
// exported here: apps reach PostgreSQL through Database alone. libs/testing and tests take it from
// '@docrender/persistence/internal' (the lint refuses that entry elsewhere).
export { Database, type OpenDatabaseOptions, type Repositories, type RepositoryOptions } from './database';
export * from './database-access';
export type { DataSourceOptions } from './data-source';
export * from './persistence.error';
export * from './billing-period';
export * from './api-keys/api-key-secret';
export * from './api-keys/webhook-secret-generator';
export * from './repositories/organisation.repository';
export * from './repositories/api-key.repository';
export * from './repositories/webhook-secret.repository';
export * from './repositories/project.repository';
export * from './repositories/template.repository';
export * from './repositories/template-version.repository';
export * from './repositories/stored-document.repository';
export * from './repositories/render-job.repository';
export * from './repositories/outbox.repository';
export * from './repositories/usage.repository';
export * from './repositories/font.repository';
export * from './repositories/rate-limit.repository';
export * from './provisioning/organisation-provisioning';
export * from './retention/retention-purge.service';
export * from './seed/seed-file';
export * from './seed/apply-seed';
export * from './embedded/embedded-postgres';
export * from './embedded/database-location';
export * from './queries';
export * from './async-jobs';
export * from './repositories/rendered-document.ledger';
export * from './repositories/undelivered-render.repository';
export * from './workspace';
