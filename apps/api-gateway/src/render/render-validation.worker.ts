import type { RenderIssue } from '@docrender/contracts';
import type { DocumentSlice } from './body/render-body.binder';
import { validateDocuments, type ValidationTarget } from './render-validation';
import { serveWorkerRequests } from './workers/worker-pool';

/** Documents to validate: the body's bytes in shared memory (not copied between threads) and where each document is. */
export type ValidationRequest = { target: ValidationTarget; buffer: SharedArrayBuffer; offset: number; length: number; documents: DocumentSlice[] };

serveWorkerRequests<ValidationRequest, RenderIssue[]>((request) =>
  validateDocuments(request.target, { raw: Buffer.from(request.buffer, request.offset, request.length), documents: request.documents }),
);
