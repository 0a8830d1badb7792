import { MessageBusUnavailableError, RequestTimeoutError, type MessageBus } from '@docrender/messaging';
import { blobStoreCheck, checkReadiness, databaseCheck, messageBusCheck } from '@docrender/platform';
import type { DatabaseHealth } from '@docrender/persistence';
import type { BlobStore } from '@docrender/storage';

/**
 * Tells an outage (a dependency unreachable: PostgreSQL, RabbitMQ, the blob store, or the render service not
 * answering) from a failure of the job itself. A job interrupted by an outage waits and resumes; a job that fails on
 * its own is retried by redelivery a bounded number of times and then dead-lettered. The dependencies are checked by
 * the readiness probe's own checks (libs/platform), so an outage here is what /ready reports.
 */
export class OutageDetector {
  constructor(private readonly deps: { database: Pick<DatabaseHealth, 'ping'>; bus: MessageBus; blobStore: BlobStore }) {}

  /** What is unreachable, judging by `error` and by checking every dependency; null when all of them answer. */
  async describe(error: unknown): Promise<string | null> {
    if (error instanceof MessageBusUnavailableError) return `message bus: ${error.message}`;
    if (error instanceof RequestTimeoutError) return `render service: ${error.message}`;
    const result = await checkReadiness([databaseCheck(this.deps.database), messageBusCheck(this.deps.bus), blobStoreCheck(this.deps.blobStore)]);
    return result.ready ? null : result.reason;
  }
}
