import { Inject, Injectable } from '@nestjs/common';
import { jobsSettings, Settings } from '@docrender/config';
import type { Logger } from '@docrender/observability';
import { ExclusivePasses, RetentionPurge, StoredDocumentRepository, type PurgeReport } from '@docrender/persistence';
import { LOGGER, PeriodicPassService } from '@docrender/platform';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import { jobMetrics } from '../jobs/job-metrics';

/** The pg_advisory_lock key meaning "a retention sweep is running" (any constant, distinct from other locks). */
export const RETENTION_SWEEP_LOCK_KEY = 7_441_902_114;

/**
 * Spec 3.3, running by itself: every JOBS_RETENTION_SWEEP_INTERVAL_MS the job worker purges the stored PDFs older
 * than their organisation's retention period (metadata kept, isPdfDeleted true), with the same RetentionPurge the
 * admin CLI's purge command uses. Safe on several replicas at once: a sweep runs only while it holds a PostgreSQL
 * advisory lock (tried, never waited for), so at most one replica sweeps at a time and the others skip that round.
 */
@Injectable()
export class RetentionSweepService extends PeriodicPassService<PurgeReport> {
  constructor(
    passes: ExclusivePasses,
    private readonly documents: StoredDocumentRepository,
    @Inject(BLOB_STORE) private readonly blobStore: BlobStore,
    @Inject(LOGGER) private readonly logger: Logger,
    settings: Settings,
  ) {
    super(passes, logger, {
      name: 'retention sweep',
      intervalSetting: jobsSettings.retentionSweepIntervalMs.env,
      lockKey: RETENTION_SWEEP_LOCK_KEY,
      intervalMs: settings.get(jobsSettings).retentionSweepIntervalMs,
    });
  }

  /**
   * One sweep: purges every PDF past its organisation's retention at `now` when this process gets the sweep lock.
   * Returns the report, or null when another replica is sweeping (or the sweep failed; it is logged and retried
   * on the next round).
   */
  sweep(now: Date = new Date()): Promise<PurgeReport | null> {
    return this.runPass(now);
  }

  protected async work(now: Date): Promise<PurgeReport> {
    const report = await new RetentionPurge(this.documents, this.blobStore).purgeByRetentionPolicy(now);
    jobMetrics.pdfsPurged.inc(report.purged);
    if (report.purged > 0 || report.failures.length > 0) {
      this.logger.info('retention sweep purged stored PDFs', { purged: report.purged, failures: report.failures.length });
    }
    for (const failure of report.failures.slice(0, 10)) {
      this.logger.warn('retention sweep could not delete a PDF; a later sweep retries it', { documentId: failure.documentId, reason: failure.reason });
    }
    return report;
  }
}
