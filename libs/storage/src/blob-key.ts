/** A blob key the stores refuse: empty, too long, absolute, with a backslash, a control character, or an empty, `.` or `..` segment. */
export class InvalidBlobKeyError extends Error {
  constructor(readonly key: string, reason: string) {
    super(`invalid blob key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidBlobKeyError';
  }
}

const MAX_KEY_BYTES = 1024;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Blob keys are `/`-separated paths such as `organisations/<id>/documents/<id>.pdf`. Both stores accept the same keys,
 * so a key that works in one-process mode works against S3 and cannot climb out of the filesystem store's root.
 */
export function assertValidBlobKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidBlobKeyError(String(key), 'empty');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw new InvalidBlobKeyError(key, `longer than ${MAX_KEY_BYTES} bytes`);
  if (CONTROL_CHARACTER.test(key)) throw new InvalidBlobKeyError(key, 'contains a control character');
  if (key.includes('\\')) throw new InvalidBlobKeyError(key, 'contains a backslash');
  if (key.startsWith('/')) throw new InvalidBlobKeyError(key, 'starts with /');
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw new InvalidBlobKeyError(key, `has an empty, '.' or '..' segment`);
  }
}

// The blob-key layout, in one place.

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
