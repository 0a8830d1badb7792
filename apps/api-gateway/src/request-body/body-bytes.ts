import { SCAN_ON_EVENT_LOOP_MAX_BYTES } from './json-scan.pool';

/**
 * The bytes of a body as they arrive, held once: small bodies as a list of chunks (joined at the end), a body past
 * SCAN_ON_EVENT_LOOP_MAX_BYTES in one resizable ArrayBuffer whose address space is reserved up to the route's cap and
 * committed only as bytes are written, no chunk kept once copied. A refused body's memory is given back at once
 * (the buffer is detached, which frees it without waiting for a garbage collection). A read body is copied once into
 * shared memory for the scan and validation threads, and the reading buffer freed at once: two copies only for the
 * moment of that copy (docs/operations.md, "Memory per request").
 */
export class BodyBytes {
  private chunks: Buffer[] = [];
  private reading: ArrayBuffer | null = null;
  private length = 0;

  constructor(private readonly maxBytes: number) {}

  append(chunk: Buffer): void {
    const length = this.length + chunk.length;
    if (this.reading === null && length > SCAN_ON_EVENT_LOOP_MAX_BYTES) {
      this.reading = new ArrayBuffer(length, { maxByteLength: Math.max(length, this.maxBytes) });
      const view = Buffer.from(this.reading);
      let offset = 0;
      for (const held of this.chunks) offset += held.copy(view, offset);
      this.chunks = [];
    }
    if (this.reading === null) {
      this.chunks.push(chunk);
    } else {
      if (length > this.reading.byteLength) this.reading.resize(length);
      chunk.copy(Buffer.from(this.reading, this.length, chunk.length));
    }
    this.length = length;
  }

  /** The body: shared memory when it is large enough to be scanned on a worker thread. Call once. */
  body(): Buffer {
    if (this.reading === null) return Buffer.concat(this.chunks, this.length);
    const shared = Buffer.from(new SharedArrayBuffer(this.length));
    Buffer.from(this.reading, 0, this.length).copy(shared);
    this.drop();
    return shared;
  }

  /** Gives back what was read, at once (a refused body). */
  drop(): void {
    this.chunks = [];
    this.reading?.transfer(0);
    this.reading = null;
  }
}
