import { Inject, Injectable, Module, type ModuleMetadata } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Settings } from '@docrender/config';
import type { MessageBus } from '@docrender/messaging';
import { createLogger } from '@docrender/observability';
import { Database, FontRepository, OutboxSqlStore, TemplateRepository, Transactions, UsageRepository } from '@docrender/persistence';
import type { BlobStore } from '@docrender/storage';
import { InfrastructureModule } from './infrastructure.module';
import { PersistenceModule } from './persistence.module';

/**
 * Issue 37 item 1: each Nest module gets only the repositories it declares (PersistenceModule.forFeature), built from
 * the process's one Database; an undeclared repository, or the Database itself, cannot be resolved in a module.
 */
describe('PersistenceModule.forFeature (a module reaches only the repositories it declares)', () => {
  const database = Database.unconnected({ apiKeyPepper: 'persistence-module-spec' });
  const infrastructure = { database, bus: {} as MessageBus, blobStore: {} as BlobStore, close: async () => undefined };

  /** Compiles an app whose root module (below the shared InfrastructureModule, as the bootstrap builds it) is `root`. */
  const compile = (root: ModuleMetadata) => {
    @Module(root)
    class AppModule {}
    return Test.createTestingModule({
      imports: [InfrastructureModule.forRoot(infrastructure, createLogger('persistence-module-spec', 'error'), Settings.load([], {})), AppModule],
    }).compile();
  };

  @Injectable()
  class UsesTemplates {
    constructor(readonly templates: TemplateRepository) {}
  }

  @Injectable()
  class UsesFonts {
    constructor(readonly fonts: FontRepository) {}
  }

  afterAll(async () => {
    await database.close();
  });

  it('a declared repository is injectable in its module, the same instance the Database holds over its pool', async () => {
    const app = await compile({ imports: [PersistenceModule.forFeature({ repositories: [TemplateRepository] })], providers: [UsesTemplates] });

    expect(app.get(UsesTemplates).templates).toBe(database.templates);
  });

  it('a repository the module does not declare cannot be resolved there: the app does not start, naming it', async () => {
    await expect(compile({ imports: [PersistenceModule.forFeature({ repositories: [TemplateRepository] })], providers: [UsesFonts] })).rejects.toThrow(
      /argument FontRepository at index \[0\] is available in the AppModule/,
    );
  });

  it("another module's declaration does not leak: a sibling that declares nothing cannot resolve it", async () => {
    @Module({ imports: [PersistenceModule.forFeature({ repositories: [FontRepository] })], providers: [UsesFonts] })
    class FontsFeature {}
    @Module({ providers: [UsesFonts] })
    class Undeclared {}

    await expect(compile({ imports: [FontsFeature] })).resolves.toBeDefined();
    await expect(compile({ imports: [FontsFeature, Undeclared] })).rejects.toThrow(/argument FontRepository at index \[0\] is available in the Undeclared/);
  });

  it('no module injects the whole Database (nor, without declaring it, the outbox store or transactions)', async () => {
    @Injectable()
    class UsesDatabase {
      constructor(readonly database: Database) {}
    }
    @Injectable()
    class UsesOutbox {
      constructor(readonly outbox: OutboxSqlStore) {}
    }
    @Injectable()
    class UsesTransactions {
      constructor(@Inject(Transactions) readonly transactions: Transactions<'usage'>) {}
    }
    const declared = PersistenceModule.forFeature({ repositories: [UsageRepository] });

    await expect(compile({ imports: [declared], providers: [UsesDatabase] })).rejects.toThrow(/argument Database at index \[0\]/);
    await expect(compile({ imports: [declared], providers: [UsesOutbox] })).rejects.toThrow(/argument OutboxSqlStore at index \[0\]/);
    await expect(compile({ imports: [declared], providers: [UsesTransactions] })).rejects.toThrow(/argument Transactions at index \[0\]/);
    await expect(
      compile({ imports: [PersistenceModule.forFeature({ transactions: ['usage'], outboxStore: true })], providers: [UsesOutbox, UsesTransactions] }),
    ).resolves.toBeDefined();
  });
});
