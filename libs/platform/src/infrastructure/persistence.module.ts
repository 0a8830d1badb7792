import { DynamicModule, FactoryProvider, InjectionToken, Module } from '@nestjs/common';
import {
  Database,
  DatabaseHealth,
  ExclusivePasses,
  OutboxSqlStore,
  repositoryOf,
  Transactions,
  type RepositoryClass,
  type RepositoryName,
} from '@docrender/persistence';
import { DATABASE } from './database.token';

/** What one Nest module uses of PostgreSQL, declared where the module is wired. */
export type PersistenceFeature = {
  /** The repositories and queries its providers inject, by class. */
  repositories?: readonly RepositoryClass[];
  /** The repositories its transaction bodies get (provides `Transactions`, whose `run` hands over these alone). */
  transactions?: readonly RepositoryName[];
  /** Provides `ExclusivePasses` (one replica at a time does a periodic pass). */
  exclusivePasses?: boolean;
  /** Provides the outbox as a relay's store (`OutboxSqlStore`). */
  outboxStore?: boolean;
  /** Provides `DatabaseHealth` (does PostgreSQL answer). */
  health?: boolean;
};

/**
 * The one way a Nest module reaches PostgreSQL: `imports: [PersistenceModule.forFeature({ repositories: [...] })]`
 * makes the declared repositories (and transactions, passes, outbox store, health) injectable in that module and in
 * no other, all built from the process's one `Database` (which keeps the pool and the transactions). A repository a
 * module does not declare cannot be resolved there, and no module injects the `Database` itself (issue 37).
 */
@Module({})
export class PersistenceModule {
  static forFeature(feature: PersistenceFeature): DynamicModule {
    const fromDatabase = (provide: InjectionToken, build: (database: Database) => unknown): FactoryProvider => ({ provide, useFactory: build, inject: [DATABASE] });
    const providers = (feature.repositories ?? []).map((type) => fromDatabase(type, (database) => repositoryOf(database, type)));
    const { transactions } = feature;
    if (transactions !== undefined) providers.push(fromDatabase(Transactions, (database) => new Transactions(database, transactions)));
    if (feature.exclusivePasses) providers.push(fromDatabase(ExclusivePasses, (database) => new ExclusivePasses(database)));
    if (feature.outboxStore) providers.push(fromDatabase(OutboxSqlStore, (database) => database.outboxStore()));
    if (feature.health) providers.push(fromDatabase(DatabaseHealth, (database) => new DatabaseHealth(database)));
    return { module: PersistenceModule, providers, exports: providers.map((provider) => provider.provide) };
  }
}
