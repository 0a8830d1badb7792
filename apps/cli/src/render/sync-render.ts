import { mkdir, writeFile } from 'node:fs/promises';
import { pdfOf, RenderStatus, type DocrenderClient, type RenderIssue } from '@docrender/client';
import type { Output } from '../output/output';
import { PdfFileNames } from './pdf-file-names';
import { batches, type RenderRequest, type RunResult, type WrittenFile } from './render-run';

/**
 * Renders the documents synchronously, `batchSize` per request, and writes each rendered PDF (asked for inline with
 * includeDocument) as `<documentName>.pdf`. Issue and document indexes are shifted from request to data-file positions.
 * When credit runs out the remaining batches are not sent.
 */
export async function renderSync(client: DocrenderClient, request: RenderRequest, output: Output): Promise<RunResult> {
  await mkdir(request.outDir, { recursive: true });
  const names = new PdfFileNames(request.outDir);
  const files: WrittenFile[] = [];
  const issues: RenderIssue[] = [];
  const missing: number[] = [];
  let renderedCount = 0;
  let stoppedEarly: string | null = null;
  const bar = output.progress('render', request.documents.length, 'documents');
  const chunks = batches(request.documents, request.batchSize);
  for (const [chunkNumber, chunk] of chunks.entries()) {
    const envelope = await client.renders.render(request.templateId, chunk.items, {
      version: request.version,
      language: request.language,
      persist: request.persist,
      includeDocument: true,
    });
    renderedCount += envelope.renderedCount;
    issues.push(...envelope.issues.map((issue) => ({ ...issue, documentIndex: issue.documentIndex === null ? null : chunk.offset + issue.documentIndex })));
    const rendered = new Set<number>();
    for (const document of envelope.documents) {
      const index = chunk.offset + document.documentIndex;
      rendered.add(index);
      const pdf = pdfOf(document) ?? (document.id === null ? null : await client.documents.download(document.id));
      if (pdf === null) continue;
      const path = names.pathFor(document.documentName, index);
      await writeFile(path, pdf);
      files.push({ documentIndex: index, documentName: document.documentName, path, documentId: document.id });
    }
    chunk.items.forEach((_, i) => {
      if (!rendered.has(chunk.offset + i)) missing.push(chunk.offset + i);
    });
    bar?.update(chunk.offset + chunk.items.length);
    if (envelope.status === RenderStatus.InsufficientCredit && chunkNumber < chunks.length - 1) {
      stoppedEarly = `credit ran out after document ${chunk.offset + chunk.items.length - 1}; the remaining documents were not sent`;
      for (const later of chunks.slice(chunkNumber + 1)) later.items.forEach((_, i) => missing.push(later.offset + i));
      break;
    }
  }
  bar?.finish();
  return { renderedCount, missingDocuments: missing, files, notReceived: null, issues, issuesMayBeTruncated: false, jobs: [], stoppedEarly };
}
