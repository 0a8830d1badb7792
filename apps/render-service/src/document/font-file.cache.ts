import type { BlobStore } from '@docrender/storage';

/**
 * Custom font files by blob key, kept in memory between renders up to `maxBytes` (least recently used dropped first).
 * A font file's blob key names one immutable upload, so a cached file never goes stale. Concurrent requests for a
 * key share one read.
 */
export class FontFileCache {
  private readonly files = new Map<string, Buffer>();
  private readonly reading = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  constructor(private readonly blobStore: BlobStore, private readonly maxBytes: number) {}

  get sizeBytes(): number {
    return this.bytes;
  }

  async get(blobKey: string): Promise<Buffer> {
    const cached = this.files.get(blobKey);
    if (cached !== undefined) {
      this.files.delete(blobKey);
      this.files.set(blobKey, cached);
      return cached;
    }
    const pending = this.reading.get(blobKey);
    if (pending !== undefined) return pending;
    const read = this.blobStore.get(blobKey).finally(() => this.reading.delete(blobKey));
    this.reading.set(blobKey, read);
    const file = await read;
    this.remember(blobKey, file);
    return file;
  }

  private remember(blobKey: string, file: Buffer): void {
    if (file.length > this.maxBytes || this.files.has(blobKey)) return;
    this.files.set(blobKey, file);
    this.bytes += file.length;
    for (const [key, oldest] of this.files) {
      if (this.bytes <= this.maxBytes) break;
      this.files.delete(key);
      this.bytes -= oldest.length;
    }
  }
}
