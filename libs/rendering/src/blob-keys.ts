import { jobDocumentId } from './deterministic-id';

// The blob-key layout of rendered documents and of the inputs that wait for the render service, in one place.

/** Where a stored document's PDF lives, whoever rendered it (a sync render through the gateway or a job's worker). */
export const documentPdfBlobKey = (organisationId: string, documentId: string): string => `organisations/${organisationId}/documents/${documentId}.pdf`;

/** Where the PDF of a persist=false sync render waits until it has been sent. */
export const transientPdfBlobKey = (organisationId: string, requestId: string, documentIndex: number): string =>
  `organisations/${organisationId}/transient/${requestId}/${documentIndex}.pdf`;

/** Where a sync render's document JSON waits for the render service when it is too large to travel in the message. */
export const renderInputBlobKey = (organisationId: string, requestId: string): string =>
  `organisations/${organisationId}/render-inputs/${requestId.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;

/** The prefix under which the gateway stores a job's documents for the job worker (the job row stores it). */
export const jobInputPrefix = (jobId: string): string => `jobs/${jobId}/input`;

/** Where document `documentIndex` of a job waits for the job worker (UTF-8 JSON), under the job's input prefix. */
export const jobInputKey = (inputPrefix: string, documentIndex: number): string => `${inputPrefix}/${documentIndex}.json`;

/** Where the render service puts the PDF of a job's document that is not persisted (read for the callback, then deleted). */
export const jobTransientPdfBlobKey = (jobId: string, documentIndex: number): string => `jobs/${jobId}/output/${documentIndex}.pdf`;

/** What places the PDF of one document of a job. */
export type JobOutput = { id: string; organisationId: string; persist: boolean };

/**
 * Where the PDF of document `documentIndex` of a job goes: a persisted document's place (its id is name-based, so
 * every run of the job writes the same key), otherwise the job's transient output.
 */
export const jobDocumentPdfBlobKey = (job: JobOutput, documentIndex: number): string =>
  job.persist ? documentPdfBlobKey(job.organisationId, jobDocumentId(job.id, documentIndex)) : jobTransientPdfBlobKey(job.id, documentIndex);

/** Where the PDF of document `documentIndex` of a sync render goes: the stored document's place, or a transient one. */
export const syncDocumentPdfBlobKey = (organisationId: string, requestId: string, documentIndex: number, documentId: string | null): string =>
  documentId === null ? transientPdfBlobKey(organisationId, requestId, documentIndex) : documentPdfBlobKey(organisationId, documentId);
