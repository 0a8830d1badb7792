import { mkdir, writeFile } from 'node:fs/promises';
import {
  ErrorCode,
  JobState,
  Limits,
  pdfOf,
  UnprocessableEntityError,
  type CompletionCallbackDto,
  type DocrenderClient,
  type JobStatusDto,
  type ReceivedCallback,
  type RenderedDocumentDto,
  type RenderIssue,
} from '@docrender/client';
import type { Output } from '../output/output';
import { CallbackReceiver } from './callback-receiver';
import { PdfFileNames } from './pdf-file-names';
import { batches, LOCAL_EGRESS_HINT, type RenderRequest, type RunResult, type WrittenFile } from './render-run';

export type AsyncRenderOptions = {
  callbackUrl: string;
  pollIntervalMs: number;
  /** Receive the callbacks here and write the PDFs; null: the PDFs go to the callback URL only. */
  receive: { host: string; port: number; secrets: string[]; graceMs: number } | null;
};

type Job = { jobId: string; offset: number; count: number; status: JobStatusDto | null };

/**
 * Enqueues the documents as asynchronous jobs (`batchSize` per job), shows progress by polling each job with the SDK's
 * waiter until none is pending, and, with a receiver, writes `<documentName>.pdf` for each progress callback (the PDF
 * inline when persist=false, else downloaded by id). Polling is the authoritative signal; callbacks are best-effort, so
 * after the jobs end the receiver waits up to `graceMs` for callbacks still being retried.
 */
export async function renderAsync(client: DocrenderClient, request: RenderRequest, output: Output, options: AsyncRenderOptions): Promise<RunResult> {
  await mkdir(request.outDir, { recursive: true });
  const names = new PdfFileNames(request.outDir);
  const files: WrittenFile[] = [];
  const jobs = new Map<string, Job>();
  const early = new Map<string, ReceivedCallback[]>();
  const receivedIndexes = new Set<number>();
  const completions = new Map<string, CompletionCallbackDto>();
  const writes = new Set<Promise<void>>();

  const writeDocument = (index: number, document: RenderedDocumentDto): void => {
    if (receivedIndexes.has(index)) return;
    receivedIndexes.add(index);
    const path = names.pathFor(document.documentName, index);
    const inline = pdfOf(document);
    const write = (async () => {
      if (inline !== null) await writeFile(path, inline);
      else if (document.id !== null) await client.documents.downloadToFile(document.id, path);
      else throw new Error('the callback carries neither the PDF nor a document id');
      files.push({ documentIndex: index, documentName: document.documentName, path, documentId: document.id });
    })().catch((error: unknown) => {
      receivedIndexes.delete(index);
      output.note(`document ${index}: not written: ${(error as Error).message}`);
    });
    writes.add(write);
    void write.finally(() => writes.delete(write));
  };
  const handle = (callback: ReceivedCallback): void => {
    const job = jobs.get(callback.body.jobId);
    if (!job) {
      // The callback overtook the enqueue answer: keep it until the job id is known.
      early.set(callback.body.jobId, [...(early.get(callback.body.jobId) ?? []), callback]);
      return;
    }
    if (callback.kind === 'progress') writeDocument(job.offset + callback.body.documentIndex, callback.body.document);
    else completions.set(callback.body.jobId, callback.body);
  };

  const receiver = options.receive
    ? await CallbackReceiver.start({
        ...options.receive,
        onCallback: handle,
        onRejected: (reason) => output.note(`callback rejected: ${reason}`),
      })
    : null;
  try {
    const bar = output.progress('render', request.documents.length, 'documents');
    const draw = (): void => {
      const processed = [...jobs.values()].reduce((sum, job) => sum + (job.status === null ? 0 : job.status.state === JobState.Pending ? job.status.renderedCount : job.count), 0);
      bar?.update(processed, `(${jobs.size} job${jobs.size === 1 ? '' : 's'})`);
    };
    for (const chunk of batches(request.documents, request.batchSize)) {
      const accepted = await client.jobs
        .enqueue(request.templateId, chunk.items, {
          callbackUrl: options.callbackUrl,
          version: request.version,
          language: request.language,
          persist: request.persist,
          includeDocument: options.receive !== null && !request.persist,
        })
        .catch((error: unknown) => {
          if (jobs.size > 0) output.note(`enqueue failed after ${jobs.size} job(s), which keep running: ${[...jobs.keys()].join(', ')}`);
          throw refusedCallbackUrl(error, options.callbackUrl) ?? error;
        });
      jobs.set(accepted.jobId, { jobId: accepted.jobId, offset: chunk.offset, count: chunk.items.length, status: null });
      // Waiting can be resumed from another shell, e.g. after this one was interrupted: the job goes on regardless.
      const resume = `job ${accepted.jobId}: ${chunk.items.length} document(s); if interrupted, wait again with: docrender jobs wait ${accepted.jobId}`;
      if (bar) bar.interject(resume);
      else output.note(resume);
      for (const callback of early.get(accepted.jobId) ?? []) handle(callback);
      early.delete(accepted.jobId);
      draw();
    }
    await Promise.all(
      [...jobs.values()].map(async (job) => {
        job.status = await client.jobs.wait(job.jobId, {
          pollIntervalMs: options.pollIntervalMs,
          onStatus: (status) => {
            job.status = status;
            draw();
          },
        });
      }),
    );
    bar?.finish();
    const statuses = [...jobs.values()].map((job) => job.status as JobStatusDto);
    const renderedCount = statuses.reduce((sum, status) => sum + status.renderedCount, 0);

    if (receiver && options.receive) {
      const deadline = Date.now() + options.receive.graceMs;
      const allIn = (): boolean => receivedIndexes.size >= renderedCount && completions.size >= jobs.size;
      if (!allIn()) output.note(`waiting up to ${Math.round(options.receive.graceMs / 1000)} s for callbacks still on their way`);
      while (!allIn() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      await Promise.all([...writes]);
    }

    const issues: RenderIssue[] = [];
    let issuesMayBeTruncated = false;
    for (const job of jobs.values()) {
      const completion = completions.get(job.jobId);
      const jobIssues = completion?.issues ?? (job.status as JobStatusDto).issues;
      if (!completion && jobIssues.length >= Limits.jobIssuesStored) issuesMayBeTruncated = true;
      issues.push(...jobIssues.map((issue) => ({ ...issue, documentIndex: issue.documentIndex === null ? null : job.offset + issue.documentIndex })));
    }
    const exact = receiver !== null && receivedIndexes.size === renderedCount;
    return {
      renderedCount,
      missingDocuments: exact ? request.documents.map((_, i) => i).filter((i) => !receivedIndexes.has(i)) : null,
      files,
      notReceived: receiver === null ? null : renderedCount - receivedIndexes.size,
      issues,
      issuesMayBeTruncated,
      jobs: statuses,
      stoppedEarly: null,
    };
  } finally {
    await receiver?.close();
  }
}

/** The service refusing the callback URL at enqueue (422 BindingError naming callbackUrl), said plainly; null otherwise. */
export function refusedCallbackUrl(error: unknown, callbackUrl: string): Error | null {
  if (!(error instanceof UnprocessableEntityError) || error.code !== ErrorCode.BindingError || !error.serviceMessage.includes('callbackUrl')) return null;
  return new Error(`the service refused the callback URL ${callbackUrl}: ${error.serviceMessage}. ${LOCAL_EGRESS_HINT[0].toUpperCase()}${LOCAL_EGRESS_HINT.slice(1)}`);
}
