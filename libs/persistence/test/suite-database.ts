import { createTestDatabase, type TestDatabase } from '@docrender/testing';

/** A TestDatabase as a suite sees it: its beforeAll creates it, its afterAll drops it. */
export type SuiteDatabase = Omit<TestDatabase, 'drop'>;

/**
 * The database of the suite it is called in (at the top of a describe): registers a beforeAll that creates a database
 * of its own, migrated unless `migrate: false`, and an afterAll that drops it. The object returned reads through to
 * that database, so hooks and tests use it as they would the TestDatabase itself.
 */
export function suiteDatabase(options: { migrate?: boolean } = {}): SuiteDatabase {
  let created: TestDatabase | undefined;
  beforeAll(async () => {
    created = await createTestDatabase(options);
  });
  afterAll(async () => {
    await created?.drop();
  });
  const current = (): TestDatabase => {
    if (created === undefined) throw new Error('the suite database is created in beforeAll: use it in hooks and tests');
    return created;
  };
  return {
    get url() {
      return current().url;
    },
    get name() {
      return current().name;
    },
    get dataSource() {
      return current().dataSource;
    },
    get database() {
      return current().database;
    },
  };
}
