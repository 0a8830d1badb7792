import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type JobStatusDto, type RenderIssueDto } from '@docrender/contracts';
import { RenderJobRepository } from '@docrender/persistence';

/**
 * Spec 4.6 / 2.9: the job row is the authoritative answer. Counts are exact; at most the first 100 issues are stored
 * and returned, ordered by documentIndex like the completion callback's issues (documents finish in any order);
 * status, completedAt and failureReason are null while pending. startedAt is when a worker first took the job, or
 * the enqueue time while it waits in the queue. Another organisation's job is 404 EntityNotFound.
 */
@Injectable()
export class RenderJobStatusService {
  constructor(private readonly jobs: RenderJobRepository) {}

  async status(organisationId: string, jobId: string): Promise<JobStatusDto> {
    const job = await this.jobs.findById(organisationId, jobId);
    if (job === null) throw new DomainError(ErrorCode.EntityNotFound, `job ${jobId} not found`);
    const stored = await this.jobs.listStoredIssues(jobId);
    // A stable sort: the issues of one document keep their order.
    const issues = [...stored].sort((a, b) => (a.documentIndex ?? -1) - (b.documentIndex ?? -1)) as RenderIssueDto[];
    return {
      jobId: job.id,
      state: job.state,
      status: job.status,
      renderedCount: job.renderedCount,
      requestedCount: job.requestedCount,
      missingCount: job.requestedCount - job.renderedCount,
      issues,
      startedAt: (job.startedAt ?? job.createdAt).toISOString(),
      completedAt: job.completedAt === null ? null : job.completedAt.toISOString(),
      failureReason: job.failureReason,
    };
  }
}
