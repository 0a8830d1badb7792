import type { RenderIssue } from '@docrender/contracts';
import type { DocumentSlice } from '../request-body/render-body.binder';
import { sharedValidationEgressPolicy, validateDocuments, type ValidationTarget } from './render-validation';
import { bufferOf, serveWorkerRequests, type SharedBytes } from '@docrender/platform/workers';

/** Documents to validate: the body's bytes in shared memory (not copied between threads) and where each document is. */
export type ValidationRequest = { target: ValidationTarget; raw: SharedBytes; documents: DocumentSlice[] };

const policy = sharedValidationEgressPolicy();

serveWorkerRequests<ValidationRequest, RenderIssue[]>((request) =>
  validateDocuments(request.target, { raw: bufferOf(request.raw), documents: request.documents }, policy),
);
