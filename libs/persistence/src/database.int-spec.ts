import { suiteDatabase } from '../test/suite-database';
import { provisionOrganisation } from './provisioning/organisation-provisioning';
import { Database, type Repositories } from './database';

/** Issue 19: apps reach PostgreSQL through repositories and one transaction helper, Database.transaction. */
describe('Database.transaction (the one transaction helper)', () => {
  const db = suiteDatabase();
  const now = new Date('2026-11-24T12:00:00Z');

  /** Two writes that must succeed or fail together: an organisation and a project of it. */
  const organisationWithProject = async (r: Repositories, name: string) => {
    const { organisation } = await provisionOrganisation(
      r,
      { name, tier: 'free', includedPagesPerMonth: 100, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 },
      now,
    );
    const project = await r.projects.create({ organisationId: organisation.id, name: `${name} project` }, now);
    return { organisationId: organisation.id, projectId: project.id };
  };

  it('commits every write of the transaction when the work resolves, and returns what the work returned', async () => {
    const ids = await db.database.transaction((r) => organisationWithProject(r, 'Committed Ltd'));

    expect(await db.database.organisations.findById(ids.organisationId)).toMatchObject({ name: 'Committed Ltd' });
    expect(await db.database.projects.findById(ids.organisationId, ids.projectId)).toMatchObject({ name: 'Committed Ltd project' });
  });

  it('rolls back every write of the transaction when the work throws, and rethrows the same error', async () => {
    const failure = new Error('the second half failed');
    let ids: { organisationId: string; projectId: string } | undefined;

    await expect(
      db.database.transaction(async (r) => {
        ids = await organisationWithProject(r, 'Rolled Back Ltd');
        // Inside the transaction its own writes are visible…
        expect(await r.projects.findById(ids.organisationId, ids.projectId)).not.toBeNull();
        throw failure;
      }),
    ).rejects.toBe(failure);

    // …and after the rollback none of them is.
    expect(ids).toBeDefined();
    expect(await db.database.organisations.findById(ids!.organisationId)).toBeNull();
    expect(await db.database.projects.findById(ids!.organisationId, ids!.projectId)).toBeNull();
  });

  it('keeps the writes of an open transaction from the pool until it commits', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let created!: (ids: { organisationId: string; projectId: string }) => void;
    const written = new Promise<{ organisationId: string; projectId: string }>((resolve) => (created = resolve));

    const transaction = db.database.transaction(async (r) => {
      created(await organisationWithProject(r, 'Pending Ltd'));
      await held;
    });
    const ids = await written;
    expect(await db.database.organisations.findById(ids.organisationId)).toBeNull();

    release();
    await transaction;
    expect(await db.database.organisations.findById(ids.organisationId)).toMatchObject({ name: 'Pending Ltd' });
  });
});

describe('Database.exclusivePass', () => {
  const db = suiteDatabase({ migrate: false });
  const KEY = 7_441_902_199;

  it('runs one pass at a time: a pass tried while another holds the lock is skipped (null), and the lock is free again after', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));

    const first = db.database.exclusivePass(KEY, async () => {
      started();
      await held;
      return 'first';
    });
    await running;
    const skippedWork = jest.fn(async () => 'second');
    expect(await db.database.exclusivePass(KEY, skippedWork)).toBeNull();
    expect(skippedWork).not.toHaveBeenCalled();

    release();
    expect(await first).toEqual({ value: 'first' });
    expect(await db.database.exclusivePass(KEY, async () => 'third')).toEqual({ value: 'third' });
  });
});

/** Issue 19: the gateway's OpenAPI document is built from its module graph on a Database that never connects. */
describe('Database.unconnected', () => {
  it('hands out every repository once, and refuses every query without reaching PostgreSQL', async () => {
    const database = Database.unconnected({ apiKeyPepper: 'unconnected-test' });
    const repositories = Object.values(database.repositories());
    expect(repositories).toHaveLength(new Set(repositories.map((r) => r.constructor)).size);
    expect(database.repositories().organisations).toBe(database.organisations);
    await expect(database.ping()).rejects.toThrow();
    await expect(database.close()).resolves.toBeUndefined();
  });
});
