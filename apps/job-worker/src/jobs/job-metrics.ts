import { counter } from '@docrender/observability';

/** What operators of the job worker count and alert on. */
export const jobMetrics = {
  jobs: counter('docrender_jobs_finished_total', 'Async render jobs that reached a terminal state, by state and status.', ['state', 'status']),
  documents: counter('docrender_job_documents_total', 'Documents of async jobs by recorded outcome (rendered, blocked, failed).', ['outcome']),
  deadLettered: counter('docrender_jobs_dead_lettered_total', 'job.run messages dead-lettered after repeated failures (the job was ended).'),
  outagePauses: counter('docrender_job_outage_pauses_total', 'Times a running job paused because PostgreSQL, RabbitMQ or the render service was unreachable.'),
  pdfsPurged: counter('docrender_retention_pdfs_purged_total', 'Stored PDFs deleted by the retention sweep (metadata kept, isPdfDeleted true).'),
};
