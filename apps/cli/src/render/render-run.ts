import type { DocrenderClient, DocumentData, JobStatusDto, RenderIssue } from '@docrender/client';
import { groupIssues, indexRanges, issueSummaryLines, type IssueGroup } from '../output/issue-summary';
import type { Output } from '../output/output';

/** What `render` was asked to do. */
export type RenderRequest = {
  templateId: string;
  version: number | undefined;
  language: string | undefined;
  persist: boolean;
  documents: DocumentData[];
  /** Documents per request (sync) or per job (async). */
  batchSize: number;
  outDir: string;
};

/** A PDF the run wrote. */
export type WrittenFile = { documentIndex: number; documentName: string; path: string; documentId: string | null };

/** The outcome of a run, printed as the summary (or as JSON with --json). Indexes are positions in the data file. */
export type RenderRun = {
  mode: 'sync' | 'async';
  templateId: string;
  environment: string | null;
  requestedCount: number;
  /** Documents the service rendered. */
  renderedCount: number;
  /** requestedCount − renderedCount, whatever the reason. */
  missingCount: number;
  /** The missing documents' indexes when known exactly, else null (an async run without --receive knows only counts). */
  missingDocuments: number[] | null;
  files: WrittenFile[];
  /** Async with --receive: rendered by the service, but no callback arrived within the grace period. */
  notReceived: number | null;
  issues: RenderIssue[];
  /** Job status lists at most 100 issues per job; true when a list may have been cut and no completion callback had all. */
  issuesMayBeTruncated: boolean;
  issuesByType: IssueGroup[];
  jobs: JobStatusDto[];
  /** Why the run stopped before sending every document, or null. */
  stoppedEarly: string | null;
};

/** The run's parts a sync or async renderer fills in. */
export type RunResult = Omit<RenderRun, 'mode' | 'templateId' | 'environment' | 'requestedCount' | 'missingCount' | 'issuesByType'>;

export type Renderer = (client: DocrenderClient, request: RenderRequest, output: Output) => Promise<RunResult>;

/** What lets a local service call a local receiver (the default egress policy refuses http and non-public targets). */
export const LOCAL_EGRESS_HINT =
  'a service on this machine calls an http:// or localhost receiver only when started with EGRESS_ALLOW_HTTP=true and ' +
  'EGRESS_ALLOW_PRIVATE=true (development only); otherwise give a public https:// --callback-url';

export function completeRun(mode: RenderRun['mode'], request: RenderRequest, environment: string | null, result: RunResult): RenderRun {
  const issues = [...result.issues].sort((a, b) => (a.documentIndex ?? -1) - (b.documentIndex ?? -1));
  return {
    mode,
    templateId: request.templateId,
    environment,
    requestedCount: request.documents.length,
    missingCount: request.documents.length - result.renderedCount,
    ...result,
    files: [...result.files].sort((a, b) => a.documentIndex - b.documentIndex),
    issues,
    issuesByType: groupIssues(issues),
  };
}

/** Whether the run should exit non-zero: a document missing, a PDF not received, or the run cut short. */
export function runFailed(run: RenderRun): boolean {
  return run.missingCount > 0 || (run.notReceived ?? 0) > 0 || run.stoppedEarly !== null;
}

export function printRun(run: RenderRun, outDir: string, output: Output): void {
  output.result(run);
  const environment = run.environment ? ` (${run.environment})` : '';
  output.line(`Rendered ${run.renderedCount} of ${run.requestedCount} documents${environment}; ${run.files.length} PDF file(s) written to ${outDir}`);
  if (run.missingCount > 0) {
    const which = run.missingDocuments === null ? '' : `: ${run.missingDocuments.length === 1 ? 'document' : 'documents'} ${indexRanges(run.missingDocuments)}`;
    output.line(`Missing: ${run.missingCount}${which}`);
  }
  if (run.notReceived !== null && run.notReceived > 0) {
    output.line(`Not received: ${run.notReceived} rendered document(s) whose callback did not arrive`);
    output.note(`callbacks that never arrive are often refused by the service's egress policy: ${LOCAL_EGRESS_HINT}`);
  }
  if (run.stoppedEarly) output.line(`Stopped early: ${run.stoppedEarly}`);
  for (const job of run.jobs) {
    output.line(`Job ${job.jobId}: ${job.state}${job.status ? `, ${job.status}` : ''} (${job.renderedCount}/${job.requestedCount})${job.failureReason ? `: ${job.failureReason}` : ''}`);
  }
  if (run.issuesByType.length > 0) {
    output.line(`Issues by type (document indexes in the data file):`);
    for (const line of issueSummaryLines(run.issuesByType)) output.line(line);
    if (run.issuesMayBeTruncated) output.line('  (a job status lists at most 100 issues; counts above may be incomplete)');
  }
}

/** Consecutive slices of at most `size` items, with the index of their first item. */
export function batches<T>(items: readonly T[], size: number): { offset: number; items: T[] }[] {
  const result: { offset: number; items: T[] }[] = [];
  for (let offset = 0; offset < items.length; offset += size) result.push({ offset, items: items.slice(offset, offset + size) });
  return result;
}
