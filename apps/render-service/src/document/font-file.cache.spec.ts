import type { BlobStore } from '@docrender/storage';
import { FontFileCache } from './font-file.cache';

class CountingBlobStore implements Pick<BlobStore, 'get'> {
  readonly reads: string[] = [];
  constructor(private readonly files: Record<string, Buffer>) {}
  async get(key: string): Promise<Buffer> {
    this.reads.push(key);
    await Promise.resolve();
    const file = this.files[key];
    if (file === undefined) throw new Error(`blob not found: ${key}`);
    return file;
  }
}

const bytes = (n: number) => Buffer.alloc(n, 1);

describe('custom font files are cached by blob key, bounded', () => {
  it('reads a font once, however many renders and concurrent requests use it', async () => {
    const store = new CountingBlobStore({ a: bytes(10) });
    const cache = new FontFileCache(store as unknown as BlobStore, 100);
    await Promise.all([cache.get('a'), cache.get('a'), cache.get('a')]);
    await cache.get('a');
    expect(store.reads).toEqual(['a']);
  });

  it('drops the least recently used fonts when the bound is reached', async () => {
    const store = new CountingBlobStore({ a: bytes(40), b: bytes(40), c: bytes(40) });
    const cache = new FontFileCache(store as unknown as BlobStore, 100);
    await cache.get('a');
    await cache.get('b');
    await cache.get('a');
    await cache.get('c');
    expect(cache.sizeBytes).toBe(80);
    await cache.get('a');
    await cache.get('b');
    expect(store.reads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('does not keep a file larger than the whole cache, nor a failed read', async () => {
    const store = new CountingBlobStore({ big: bytes(200) });
    const cache = new FontFileCache(store as unknown as BlobStore, 100);
    await cache.get('big');
    expect(cache.sizeBytes).toBe(0);
    await expect(cache.get('missing')).rejects.toThrow('blob not found');
    await expect(cache.get('missing')).rejects.toThrow('blob not found');
    expect(store.reads).toEqual(['big', 'missing', 'missing']);
  });
});
