import { createHash } from 'node:crypto';

/** The namespace of every name-based id of async jobs (a fixed random UUID; never change it). */
const JOB_NAMESPACE = '5f0c6a8e-3b1d-4c2a-9e57-8d4b2f61a9c3';

/**
 * An RFC 9562 version-5 UUID (SHA-1, name-based) of `name` in `namespace`: the same inputs always give the same id, so
 * a job run again after a crash makes the same document ids and delivery ids instead of new ones.
 */
export function uuidV5(name: string, namespace: string = JOB_NAMESPACE): string {
  const hash = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The stored document made from document `documentIndex` of the job (spec 2.4 id). */
export const jobDocumentId = (jobId: string, documentIndex: number): string => uuidV5(`${jobId}/document/${documentIndex}`);

/** X-Service-Delivery of the progress callback of document `documentIndex` (spec 6.2). */
export const progressDeliveryId = (jobId: string, documentIndex: number): string => uuidV5(`${jobId}/progress/${documentIndex}`);

/** X-Service-Delivery of the job's completion callback (spec 6.2). */
export const completionDeliveryId = (jobId: string): string => uuidV5(`${jobId}/completion`);
