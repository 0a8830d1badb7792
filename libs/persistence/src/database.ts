import type { DataSource, EntityManager } from 'typeorm';
import { OutboxSqlStore } from './async-jobs/outbox-sql.store';
import { RunJobOutbox } from './async-jobs/run-job-outbox';
import { WebhookDeliveryRepository } from './async-jobs/webhook-delivery.repository';
import { connectDataSource, createDataSource, runMigrations, type DataSourceOptions } from './data-source';
import { runExclusivePass } from './exclusive-pass';
import { DocumentListingQuery } from './queries/document-listing.query';
import { SignedLinkQuery } from './queries/signed-link.query';
import { TemplateListingQuery } from './queries/template-listing.query';
import { TemplateVersionListingQuery } from './queries/template-version-listing.query';
import { ApiKeyRepository } from './repositories/api-key.repository';
import { FontRepository } from './repositories/font.repository';
import { OrganisationRepository } from './repositories/organisation.repository';
import { OutboxRepository } from './repositories/outbox.repository';
import { ProjectRepository } from './repositories/project.repository';
import { RateLimitRepository } from './repositories/rate-limit.repository';
import { RenderJobRepository } from './repositories/render-job.repository';
import { RenderedDocumentLedger, RenderJobLedger } from './repositories/rendered-document.ledger';
import { StoredDocumentRepository } from './repositories/stored-document.repository';
import { TemplateVersionRepository } from './repositories/template-version.repository';
import { TemplateRepository } from './repositories/template.repository';
import { UndeliveredRenderRepository } from './repositories/undelivered-render.repository';
import { UsageRepository } from './repositories/usage.repository';
import { WebhookSecretRepository } from './repositories/webhook-secret.repository';
import { WorkspaceInvitationRepository } from './workspace/workspace-invitation.repository';
import { WorkspaceSessionRepository } from './workspace/workspace-session.repository';
import { WorkspaceUserRepository } from './workspace/workspace-user.repository';

export type RepositoryOptions = {
  /** The server secret keying the HMAC under which API keys are stored (API_KEY_PEPPER). */
  apiKeyPepper: string;
};

/** Every repository and query, bound to one connection pool or to one transaction. */
export type Repositories = {
  organisations: OrganisationRepository;
  apiKeys: ApiKeyRepository;
  webhookSecrets: WebhookSecretRepository;
  projects: ProjectRepository;
  templates: TemplateRepository;
  templateVersions: TemplateVersionRepository;
  documents: StoredDocumentRepository;
  renderJobs: RenderJobRepository;
  outbox: OutboxRepository;
  usage: UsageRepository;
  fonts: FontRepository;
  rateLimits: RateLimitRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  runJobOutbox: RunJobOutbox;
  templateListing: TemplateListingQuery;
  templateVersionListing: TemplateVersionListingQuery;
  documentListing: DocumentListingQuery;
  signedLinks: SignedLinkQuery;
  renderedDocuments: RenderedDocumentLedger;
  renderJobLedger: RenderJobLedger;
  undeliveredRenders: UndeliveredRenderRepository;
  workspaceUsers: WorkspaceUserRepository;
  workspaceSessions: WorkspaceSessionRepository;
  workspaceInvitations: WorkspaceInvitationRepository;
};

/** Builds the repositories over an entity manager (the data source's, or a transaction's). */
export function createRepositories(manager: EntityManager, options: RepositoryOptions): Repositories {
  return {
    organisations: new OrganisationRepository(manager),
    apiKeys: new ApiKeyRepository(manager, options.apiKeyPepper),
    webhookSecrets: new WebhookSecretRepository(manager),
    projects: new ProjectRepository(manager),
    templates: new TemplateRepository(manager),
    templateVersions: new TemplateVersionRepository(manager),
    documents: new StoredDocumentRepository(manager),
    renderJobs: new RenderJobRepository(manager),
    outbox: new OutboxRepository(manager),
    usage: new UsageRepository(manager),
    fonts: new FontRepository(manager),
    rateLimits: new RateLimitRepository(manager),
    webhookDeliveries: new WebhookDeliveryRepository(manager),
    runJobOutbox: new RunJobOutbox(manager),
    templateListing: new TemplateListingQuery(manager),
    templateVersionListing: new TemplateVersionListingQuery(manager),
    documentListing: new DocumentListingQuery(manager),
    signedLinks: new SignedLinkQuery(manager),
    renderedDocuments: new RenderedDocumentLedger(manager),
    renderJobLedger: new RenderJobLedger(manager),
    undeliveredRenders: new UndeliveredRenderRepository(manager),
    workspaceUsers: new WorkspaceUserRepository(manager),
    workspaceSessions: new WorkspaceSessionRepository(manager),
    workspaceInvitations: new WorkspaceInvitationRepository(manager),
  };
}

export type OpenDatabaseOptions = DataSourceOptions &
  RepositoryOptions & {
    url: string;
    /** Apply pending migrations before returning (default true). */
    migrate?: boolean;
  };

/**
 * The database as the apps use it, and the only way they reach PostgreSQL: the repositories and queries over the
 * pool, one transaction helper that hands out repositories bound to the transaction, one-replica-at-a-time passes,
 * the outbox relay, migrations, a readiness check and close. The TypeORM connection stays inside this library (the
 * lint refuses `typeorm` and `pg` imports in apps). Several repository calls that must succeed or fail together go
 * through `transaction`. No Nest module injects it: each declares the repositories it uses with
 * `PersistenceModule.forFeature` (@docrender/platform), which takes them from this one Database.
 */
export class Database implements Repositories {
  private readonly bound: Repositories;
  readonly organisations: OrganisationRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly webhookSecrets: WebhookSecretRepository;
  readonly projects: ProjectRepository;
  readonly templates: TemplateRepository;
  readonly templateVersions: TemplateVersionRepository;
  readonly documents: StoredDocumentRepository;
  readonly renderJobs: RenderJobRepository;
  readonly outbox: OutboxRepository;
  readonly usage: UsageRepository;
  readonly fonts: FontRepository;
  readonly rateLimits: RateLimitRepository;
  readonly webhookDeliveries: WebhookDeliveryRepository;
  readonly runJobOutbox: RunJobOutbox;
  readonly templateListing: TemplateListingQuery;
  readonly templateVersionListing: TemplateVersionListingQuery;
  readonly documentListing: DocumentListingQuery;
  readonly signedLinks: SignedLinkQuery;
  readonly renderedDocuments: RenderedDocumentLedger;
  readonly renderJobLedger: RenderJobLedger;
  readonly undeliveredRenders: UndeliveredRenderRepository;
  readonly workspaceUsers: WorkspaceUserRepository;
  readonly workspaceSessions: WorkspaceSessionRepository;
  readonly workspaceInvitations: WorkspaceInvitationRepository;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: RepositoryOptions,
  ) {
    const repositories = createRepositories(dataSource.manager, options);
    this.bound = repositories;
    this.organisations = repositories.organisations;
    this.apiKeys = repositories.apiKeys;
    this.webhookSecrets = repositories.webhookSecrets;
    this.projects = repositories.projects;
    this.templates = repositories.templates;
    this.templateVersions = repositories.templateVersions;
    this.documents = repositories.documents;
    this.renderJobs = repositories.renderJobs;
    this.outbox = repositories.outbox;
    this.usage = repositories.usage;
    this.fonts = repositories.fonts;
    this.rateLimits = repositories.rateLimits;
    this.webhookDeliveries = repositories.webhookDeliveries;
    this.runJobOutbox = repositories.runJobOutbox;
    this.templateListing = repositories.templateListing;
    this.templateVersionListing = repositories.templateVersionListing;
    this.documentListing = repositories.documentListing;
    this.signedLinks = repositories.signedLinks;
    this.renderedDocuments = repositories.renderedDocuments;
    this.renderJobLedger = repositories.renderJobLedger;
    this.undeliveredRenders = repositories.undeliveredRenders;
    this.workspaceUsers = repositories.workspaceUsers;
    this.workspaceSessions = repositories.workspaceSessions;
    this.workspaceInvitations = repositories.workspaceInvitations;
  }

  /** Connects (and by default migrates) a database at `url`. */
  static async open(options: OpenDatabaseOptions): Promise<Database> {
    const dataSource = await connectDataSource(options.url, options);
    try {
      if (options.migrate ?? true) await runMigrations(dataSource);
    } catch (error) {
      await dataSource.destroy();
      throw error;
    }
    return new Database(dataSource, { apiKeyPepper: options.apiKeyPepper });
  }

  /**
   * A database whose pool never connects: for building an app's module graph without PostgreSQL (the gateway's
   * OpenAPI document is generated from its controllers this way). Every query rejects.
   */
  static unconnected(options: RepositoryOptions): Database {
    return new Database(createDataSource('postgres://unconnected@127.0.0.1:1/unconnected'), options);
  }

  /** The repositories and queries over the pool, each once (what PersistenceModule.forFeature hands a module by class). */
  repositories(): Repositories {
    return this.bound;
  }

  /** Applies every pending migration (taking turns with other processes) and returns the names applied. */
  migrate(): Promise<string[]> {
    return runMigrations(this.dataSource);
  }

  /**
   * The transaction helper: runs `work` in one transaction with repositories bound to it, committed when `work`
   * resolves and rolled back when it throws (the error propagates).
   */
  async transaction<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(createRepositories(manager, this.options)));
  }

  /**
   * Runs `work` while this process holds the PostgreSQL advisory lock `key`, so that one replica at a time does a
   * periodic pass; null without running it when another session holds the lock (see runExclusivePass).
   */
  exclusivePass<T>(key: number, work: () => Promise<T>): Promise<{ value: T } | null> {
    return runExclusivePass(this.dataSource, key, work);
  }

  /** The outbox as the relay's store (@docrender/messaging's OutboxRelay), over this database's pool. */
  outboxStore(): OutboxSqlStore {
    return new OutboxSqlStore(this.dataSource);
  }

  /** Resolves when the database answers a query (readiness probe); rejects otherwise. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
