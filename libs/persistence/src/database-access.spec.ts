import { repositoryOf, Transactions } from './database-access';
import { Database, type Repositories } from './database';
import { FontRepository } from './repositories/font.repository';
import { TemplateRepository } from './repositories/template.repository';

/** Issue 37 item 1: a module's transaction body gets the repositories its module declared, and no other. */
describe('Transactions (the transactions of one module)', () => {
  /** A database whose transaction hands the body a whole bag of stand-ins, named after their repository. */
  const everyRepository = { templates: 'templates', fonts: 'fonts', usage: 'usage', renderJobs: 'renderJobs' } as unknown as Repositories;
  const database = { transaction: <T>(work: (r: Repositories) => Promise<T>) => work(everyRepository) };

  it('hands the body the declared repositories, bound to the transaction', async () => {
    const seen = await new Transactions(database, ['templates', 'fonts']).run(async (r) => r);

    expect(seen).toEqual({ templates: 'templates', fonts: 'fonts' });
  });

  it('hands it no other, even asked by a name its type does not list', async () => {
    const undeclared = await new Transactions(database, ['templates']).run(async (r) => (r as unknown as Repositories).usage);

    expect(undeclared).toBeUndefined();
  });

  it('returns what the body returned and rethrows what it threw (the Database commits or rolls back)', async () => {
    const failure = new Error('the body failed');
    const transactions = new Transactions(database, ['renderJobs']);

    await expect(transactions.run(async () => 42)).resolves.toBe(42);
    await expect(transactions.run(async () => Promise.reject(failure))).rejects.toBe(failure);
  });
});

describe('repositoryOf (a repository by its class, as a module declares it)', () => {
  const database = Database.unconnected({ apiKeyPepper: 'database-access-spec' });
  afterAll(async () => {
    await database.close();
  });

  it('is the repository the Database holds over its pool', () => {
    expect(repositoryOf(database, TemplateRepository)).toBe(database.templates);
    expect(repositoryOf(database, FontRepository)).toBe(database.fonts);
  });
});
