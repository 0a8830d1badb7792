import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  DomainError,
  Environment,
  ErrorCode,
  Limits,
  MessageName,
  type JobAcceptedDto,
} from '@docrender/contracts';
import type { JobsSettings } from '@docrender/config';
import type { EgressPolicy } from '@docrender/egress';
import { MESSAGE_BUS, QueueFullError, type MessageBus } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import { Transactions, type RunJobOutbox } from '@docrender/persistence';
import { LOGGER } from '@docrender/platform';
import { nestingTooDeepIssue } from '@docrender/template-dsl/checks';
import { jobInputKey, jobInputPrefix, mapWithConcurrency, RenderTargetResolver, tooDeep } from '@docrender/rendering';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import type { Caller } from '../auth';
import { textOf, type EnqueueBody } from '../request-body/render-body.binder';
import { checkCallbackUrl } from './callback-url';
import { CALLBACK_EGRESS_POLICY, JOBS_SETTINGS } from './jobs.tokens';


/** Input blobs written at once while storing a job. */
const UPLOAD_CONCURRENCY = 8;

export type EnqueueRequest = {
  caller: Caller;
  templateId: string;
  /** null: the latest published version. */
  versionNumber: number | null;
  persist: boolean;
  language: string | null;
  /** Read and bound like a sync render's body: each document a slice of the raw body, sizes already checked. */
  body: EnqueueBody;
};

/** Seconds a 503 QueueFull asks the client to wait: about what a job worker takes to drain a few jobs. */
const QUEUE_FULL_RETRY_AFTER_SECONDS = 5;

type AnnounceOutcome = 'accepted' | 'queue-full';

/**
 * Spec 4.5: accepts an async job. Everything that could make it fail later on its input is checked first (50 MB per
 * document while the body is read, the callback URL against the egress policy, template and version, language, the
 * test-key cap of 10), so a rejected enqueue costs nothing, an accepted job never fails on payload size, and a
 * callback URL the dispatcher would never call (a literal loopback, private or metadata address, http, credentials)
 * is a 422 BindingError at once. A document nesting deeper than 32 levels is recorded at once as blocked
 * with a DangerousContent issue, as a sync render reports it. Then:
 * 1. the documents go to the blob store (`jobs/<jobId>/input/<index>.json`), never into a message;
 * 2. the job row and its job.run outbox message are committed in one transaction;
 * 3. the message is published at once with publisher confirms, holding no database connection while RabbitMQ is
 *    waited for. A full job queue withdraws the job (503 QueueFull with Retry-After: the job row and the message
 *    never disagree); RabbitMQ away or slower than JOBS_ENQUEUE_PUBLISH_WAIT_MS leaves it to the outbox relay (202:
 *    the job is stored and will run), so a broker outage neither fails an enqueue nor ties up the connection pool.
 */
@Injectable()
export class RenderJobEnqueueService {
  constructor(
    private readonly targets: RenderTargetResolver,
    private readonly transactions: Transactions<'renderJobs' | 'runJobOutbox'>,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(JOBS_SETTINGS) private readonly settings: JobsSettings,
    @Inject(CALLBACK_EGRESS_POLICY) private readonly callbackPolicy: EgressPolicy,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async enqueue(request: EnqueueRequest): Promise<JobAcceptedDto> {
    const { caller, body } = request;
    checkCallbackUrl(body.callbackUrl, this.callbackPolicy);
    const target = await this.targets.forStoredTemplate(caller, request.templateId, request.versionNumber, { requested: request.language });
    if (target.source === null) throw new Error('a stored-template target names its template');
    const documents = body.documents;
    if (caller.environment === Environment.Test && documents.length > Limits.testKeyBatchCap) {
      throw new DomainError(ErrorCode.ValidationError, `a test key enqueues at most ${Limits.testKeyBatchCap} documents per job; got ${documents.length}`);
    }
    const texts = documents.map((d) => (tooDeep(d) ? null : textOf(body.raw, d)));

    const jobId = randomUUID();
    const inputBlobKey = jobInputPrefix(jobId);
    const stored: string[] = [];
    try {
      await this.storeInputs(inputBlobKey, texts, stored);
      await this.transactions.run(async ({ renderJobs: jobs }) => {
        await jobs.createQueued({
          id: jobId,
          organisationId: caller.organisationId,
          templateId: target.source!.templateId,
          versionNumber: target.source!.versionNumber,
          environment: caller.environment,
          language: target.language,
          persist: request.persist,
          includeDocument: body.includeDocument,
          callbackUrl: body.callbackUrl,
          inputBlobKey,
          requestedCount: documents.length,
        });
        for (const { index: documentIndex, depth } of documents.filter(tooDeep)) {
          const issue = nestingTooDeepIssue({ levels: depth }, documentIndex);
          await jobs.recordDocumentResult({ jobId, documentIndex, outcome: 'blocked', documentId: null, issues: [issue] });
        }
      });
    } catch (error) {
      await this.deleteInputs(stored);
      throw error;
    }

    if ((await this.announce(jobId)) === 'queue-full') {
      await this.deleteInputs(stored);
      throw new DomainError(ErrorCode.QueueFull, 'the job queue is at capacity; back off and retry', { 'Retry-After': String(QUEUE_FULL_RETRY_AFTER_SECONDS) });
    }
    this.logger.info('render job accepted', { jobId, organisationId: caller.organisationId, requestedCount: documents.length });
    return { jobId, requestedCount: documents.length, state: 'queued' };
  }

  private async storeInputs(prefix: string, texts: (string | null)[], stored: string[]): Promise<void> {
    await mapWithConcurrency(
      texts.map((text, index) => ({ text, index })),
      UPLOAD_CONCURRENCY,
      async ({ text, index }) => {
        if (text === null) return;
        const key = jobInputKey(prefix, index);
        stored.push(key);
        await this.blobs.put(key, Buffer.from(text, 'utf8'), 'application/json');
      },
    );
  }

  private async deleteInputs(keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.blobs.delete(key).catch((error: unknown) =>
        this.logger.warn('could not delete the input of a job that was not accepted', { blobKey: key, errorMessage: error instanceof Error ? error.message : String(error) }),
      );
    }
  }

  /**
   * Publishes the job's job.run message now. No database connection is held while RabbitMQ is waited for: the
   * outbox row's id is read in one short transaction, the publish runs outside any, and its outcome is written in
   * another short transaction that takes the row only when no relay holds it (SKIP LOCKED). Answers once the broker
   * confirmed (accepted), refused for a full queue (the job is withdrawn: queue-full), or JOBS_ENQUEUE_PUBLISH_WAIT_MS
   * passed (accepted: the publish goes on, and if it fails the outbox relay publishes later). While the bus is
   * disconnected it does not try at all: the job is accepted at once and the relay publishes it once RabbitMQ is back.
   */
  private async announce(jobId: string): Promise<AnnounceOutcome> {
    try {
      await this.bus.ping();
    } catch (error) {
      this.deferToRelay(jobId, error);
      return 'accepted';
    }
    const outboxId = await this.transactions.run(({ runJobOutbox }) => runJobOutbox.lockUnpublished(jobId));
    if (outboxId === null) return 'accepted';
    return new Promise<AnnounceOutcome>((resolve) => {
      let decided = false;
      let withdrawing = false;
      const decide = (outcome: AnnounceOutcome): void => {
        if (decided) return;
        decided = true;
        resolve(outcome);
      };
      // A queue-full answer being written is waited for past the publish wait: the job must be gone before 503 says so.
      const timer = setTimeout(() => {
        if (!withdrawing) decide('accepted');
      }, this.settings.enqueuePublishWaitMs);
      this.bus
        .publish(MessageName.RunJob, { jobId }, { messageId: outboxId })
        .then(
          async (): Promise<AnnounceOutcome> => {
            await this.settleOutbox(jobId, (outbox, id) => outbox.markPublished(id));
            return 'accepted';
          },
          async (error: unknown): Promise<AnnounceOutcome> => {
            // Once answered 202 the job stays: the relay publishes it when the queue has room.
            if (!(error instanceof QueueFullError) || decided) throw error;
            withdrawing = true;
            return (await this.settleOutbox(jobId, (outbox) => outbox.withdraw(jobId))) === true ? 'queue-full' : 'accepted';
          },
        )
        .then(decide, (error: unknown) => {
          this.deferToRelay(jobId, error);
          decide('accepted');
        })
        .finally(() => clearTimeout(timer));
    });
  }

  /** Runs `change` on the job's unpublished job.run row unless it is gone or a relay holds it; undefined then. */
  private settleOutbox<T>(jobId: string, change: (outbox: RunJobOutbox, outboxId: string) => Promise<T>): Promise<T | undefined> {
    return this.transactions.run(async ({ runJobOutbox: outbox }) => {
      const outboxId = await outbox.lockUnpublished(jobId);
      return outboxId === null ? undefined : change(outbox, outboxId);
    });
  }

  private deferToRelay(jobId: string, error: unknown): void {
    this.logger.warn('job.run not published at enqueue; the outbox relay publishes it', {
      jobId,
      errorName: error instanceof Error ? error.name : 'Error',
      errorMessage: error instanceof Error ? error.message : String(error),
    });
  }
}
