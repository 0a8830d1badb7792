import { ConfigOf, setting } from './setting';

/**
 * Async render jobs (docs/api.md#asynchronous-jobs-and-callbacks, and retention under Documents and PDFs): the gateway's enqueue and outbox relay, and the job worker
 * (docs/decisions/0004-async-jobs.md).
 */
export const jobsSettings = {
  concurrentJobs: setting.int(
    'JOBS_CONCURRENT_JOBS',
    'Jobs one job-worker process runs at once (the prefetch of its job.run consumer).',
    2,
    { min: 1, max: 100 },
  ),
  renderConcurrency: setting.int(
    'JOBS_RENDER_CONCURRENCY',
    'Documents of one job rendered in parallel (render.document requests in flight per job; as many as RENDER_API_BATCH_CONCURRENCY, so a job keeps the render pool as busy, and its shared prints as full, as a sync batch does).',
    20,
    { min: 1, max: 64 },
  ),
  outageRetryMs: setting.int(
    'JOBS_OUTAGE_RETRY_MS',
    'How long a running job waits out an outage (PostgreSQL, RabbitMQ or the render service unreachable) in the job worker; after that its message waits in RabbitMQ (AMQP_OUTAGE_WAIT_MS), not counted against AMQP_DELIVERY_LIMIT.',
    300_000,
    { min: 0, max: 86_400_000 },
  ),
  enqueuePublishWaitMs: setting.int(
    'JOBS_ENQUEUE_PUBLISH_WAIT_MS',
    "How long an enqueue waits for RabbitMQ's confirm of the job.run message before answering 202 anyway (the job is stored; the outbox relay publishes it).",
    2_000,
    { min: 0, max: 60_000 },
  ),
  outboxPollMs: setting.int(
    'JOBS_OUTBOX_POLL_MS',
    'How often an outbox relay looks for messages that were stored but not yet published (after a crash or a RabbitMQ outage).',
    1_000,
    { min: 50, max: 600_000 },
  ),
  callbackGatherMs: setting.int(
    'JOBS_CALLBACK_GATHER_MS',
    "How long the job worker gathers the progress callbacks its jobs store before it hands them to the webhook dispatcher together (a job's completion callback sends those gathered at once and follows them). Callbacks sent a few at a time let RabbitMQ, the dispatcher and PostgreSQL wake once for several; each progress callback may leave up to this much later. 0 sends each at once.",
    250,
    { min: 0, max: 1_000 },
  ),
  outboxKeepHours: setting.int(
    'JOBS_OUTBOX_KEEP_HOURS',
    'Hours published outbox messages are kept (for inspection) before the relay deletes them.',
    24,
    { min: 0, max: 10_000 },
  ),
  retentionSweepIntervalMs: setting.int(
    'JOBS_RETENTION_SWEEP_INTERVAL_MS',
    'How often the job worker purges stored PDFs older than their organisation\'s retention period (docs/api.md#documents-and-pdfs); one replica sweeps at a time. 0 disables the sweep.',
    3_600_000,
    { min: 0, max: 604_800_000 },
  ),
};

export type JobsSettings = ConfigOf<typeof jobsSettings>;
