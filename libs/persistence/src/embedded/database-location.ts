import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';

export type DatabaseLocationSettings = {
  /** DATABASE_URL; undefined starts (or reuses) the embedded PostgreSQL. */
  url: string | undefined;
  /** EMBEDDED_PG_DATA_DIR */
  embeddedDataDir: string;
  /** EMBEDDED_PG_PORT (0: pick one and keep it) */
  embeddedPort: number;
};

export type DatabaseLocation = {
  url: string;
  /** The embedded server when DATABASE_URL was unset; stop it (through this) on shutdown. */
  embedded: EmbeddedPostgres | null;
  /** Stops the embedded server if this process started it; otherwise does nothing. */
  release(): Promise<void>;
};

/** The configured database, or the embedded one (started here, or reused when another process already runs it). */
export async function locateDatabase(settings: DatabaseLocationSettings, options: { logger?: { debug(message: string): void } } = {}): Promise<DatabaseLocation> {
  if (settings.url !== undefined) return { url: settings.url, embedded: null, release: async () => undefined };
  const embedded = await startEmbeddedPostgres({ dataDir: settings.embeddedDataDir, port: settings.embeddedPort, logger: options.logger });
  return { url: embedded.url, embedded, release: () => embedded.stop() };
}
