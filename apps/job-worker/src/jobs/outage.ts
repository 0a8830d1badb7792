import { MessageBusUnavailableError, RequestTimeoutError, type MessageBus } from '@docrender/messaging';
import type { BlobStore } from '@docrender/storage';
import type { DataSource } from 'typeorm';

/** How long one dependency check may take before the dependency counts as unreachable. */
const CHECK_TIMEOUT_MS = 3_000;

/**
 * Tells an outage (a dependency unreachable: PostgreSQL, RabbitMQ, the blob store, or the render service not
 * answering) from a failure of the job itself. A job interrupted by an outage waits and resumes; a job that fails on
 * its own is retried by redelivery a bounded number of times and then dead-lettered.
 */
export class OutageDetector {
  constructor(private readonly deps: { dataSource: DataSource; bus: MessageBus; blobStore: BlobStore }) {}

  /** What is unreachable, judging by `error` and by checking every dependency; null when all of them answer. */
  async describe(error: unknown): Promise<string | null> {
    if (error instanceof MessageBusUnavailableError) return `message bus: ${error.message}`;
    if (error instanceof RequestTimeoutError) return `render service: ${error.message}`;
    const failures = await Promise.all([
      check('database', () => this.deps.dataSource.query('SELECT 1')),
      check('message bus', () => this.deps.bus.ping()),
      check('blob storage', () => this.deps.blobStore.ping()),
    ]);
    const unreachable = failures.filter((f): f is string => f !== null);
    return unreachable.length > 0 ? unreachable.join('; ') : null;
  }
}

async function check(name: string, probe: () => Promise<unknown>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return null;
  } catch (error) {
    return `${name}: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}
