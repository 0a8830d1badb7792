import type { Database, Repositories } from './database';

/** The name of one repository or query in the bag (`renderJobs`, `templates`…). */
export type RepositoryName = keyof Repositories;

/** The class of one repository or query: what a module declares, and what its providers inject. */
export type RepositoryClass = { [K in RepositoryName]: abstract new (...args: never[]) => Repositories[K] }[RepositoryName];

/** The repository of class `type` over the database's pool; throws when the bag holds none of that class. */
export function repositoryOf<C extends RepositoryClass>(database: Pick<Database, 'repositories'>, type: C): InstanceType<C> {
  const found = Object.values(database.repositories()).find((repository) => repository.constructor === type);
  if (found === undefined) throw new Error(`${type.name} is not a repository of the database`);
  return found as InstanceType<C>;
}

/**
 * The transactions of one module: `run(work)` runs `work` in one transaction (Database.transaction) and hands it the
 * repositories the module declared, bound to the transaction, and no other — the body cannot reach one its module
 * does not declare, even by a name the type does not list.
 */
export class Transactions<K extends RepositoryName = RepositoryName> {
  constructor(
    private readonly database: Pick<Database, 'transaction'>,
    private readonly names: readonly K[],
  ) {}

  run<T>(work: (repositories: Pick<Repositories, K>) => Promise<T>): Promise<T> {
    return this.database.transaction((all) => {
      const declared = {} as Pick<Repositories, K>;
      for (const name of this.names) declared[name] = all[name];
      return work(declared);
    });
  }
}

/** One replica at a time does a periodic pass (Database.exclusivePass), without the module holding the database. */
export class ExclusivePasses {
  constructor(private readonly database: Pick<Database, 'exclusivePass'>) {}

  run<T>(key: number, work: () => Promise<T>): Promise<{ value: T } | null> {
    return this.database.exclusivePass(key, work);
  }
}

/** Whether PostgreSQL answers (Database.ping), for a module that waits out outages. */
export class DatabaseHealth {
  constructor(private readonly database: Pick<Database, 'ping'>) {}

  ping(): Promise<void> {
    return this.database.ping();
  }
}
