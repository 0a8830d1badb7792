import type { Provider } from '@nestjs/common';
import { DATA_SOURCE } from '@docrender/platform';
import type { DataSource, EntityManager } from 'typeorm';

/** Provides a persistence query class (constructed over the entity manager) under its own class as token. */
export function queryProvider<T>(query: new (manager: EntityManager) => T): Provider {
  return { provide: query, useFactory: (dataSource: DataSource) => new query(dataSource.manager), inject: [DATA_SOURCE] };
}
