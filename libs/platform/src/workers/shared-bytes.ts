/** Bytes in shared memory, as they travel to a worker thread: the other thread reads them without a copy. */
export type SharedBytes = { buffer: SharedArrayBuffer; offset: number; length: number };

/** `bytes` in memory other threads can read without a copy: as they are when already shared, else copied once. */
export function toSharedBuffer(bytes: Buffer): Buffer {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const shared = Buffer.from(new SharedArrayBuffer(bytes.byteLength));
  bytes.copy(shared);
  return shared;
}

/** `bytes` (copied into shared memory once, unless they are there already) as they travel to a worker. */
export function sharedBytes(bytes: Buffer): SharedBytes {
  const shared = toSharedBuffer(bytes);
  return { buffer: shared.buffer as SharedArrayBuffer, offset: shared.byteOffset, length: shared.byteLength };
}

/** The worker's view of SharedBytes (no copy). */
export function bufferOf(bytes: SharedBytes): Buffer {
  return Buffer.from(bytes.buffer, bytes.offset, bytes.length);
}
