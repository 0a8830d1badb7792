import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { InvalidBlobKeyError } from '../blob-key';
import { BlobNotFoundError, type BlobStore } from '../blob-store';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * The BlobStore port's contract, run against every adapter (filesystem, MinIO on s3rver).
 * `store()` returns the adapter under test, ready to use.
 */
export function describeBlobStoreBehaviour(store: () => BlobStore): void {
  const key = (name: string) => `organisations/${randomUUID()}/documents/${name}`;

  it('stores a blob and reads it back whole, as a stream, and its size and content type', async () => {
    const k = key('invoice.pdf');
    const body = Buffer.from('%PDF-1.7 fake bytes \u00e9');
    await store().put(k, body, 'application/pdf');
    expect(await store().get(k)).toEqual(body);
    expect(await readAll(await store().getStream(k))).toEqual(body);
    expect(await store().stat(k)).toEqual({ key: k, sizeBytes: body.length, contentType: 'application/pdf' });
  });

  it('overwrites a blob with its new content and content type', async () => {
    const k = key('preview.png');
    await store().put(k, Buffer.from('old, longer content'), 'image/png');
    await store().put(k, Buffer.from('new'), 'image/webp');
    expect((await store().get(k)).toString()).toBe('new');
    expect(await store().stat(k)).toEqual({ key: k, sizeBytes: 3, contentType: 'image/webp' });
  });

  it('stores an empty blob and a 5 MB blob', async () => {
    const empty = key('empty.bin');
    await store().put(empty, Buffer.alloc(0), 'application/octet-stream');
    expect(await store().get(empty)).toEqual(Buffer.alloc(0));
    const large = key('large.bin');
    const body = Buffer.alloc(5 * 1024 * 1024, 7);
    await store().put(large, body, 'application/octet-stream');
    expect((await store().stat(large))?.sizeBytes).toBe(body.length);
    expect((await store().get(large)).equals(body)).toBe(true);
  });

  it('a missing key: get and getStream throw BlobNotFoundError, stat is null, delete is no error', async () => {
    const k = key('missing.pdf');
    await expect(store().get(k)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store().getStream(k)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store().stat(k)).toBeNull();
    await expect(store().delete(k)).resolves.toBeUndefined();
  });

  it('a prefix of stored keys is not itself a blob', async () => {
    const k = key('nested/file.pdf');
    await store().put(k, Buffer.from('x'), 'application/pdf');
    const prefix = k.slice(0, k.lastIndexOf('/'));
    expect(await store().stat(prefix)).toBeNull();
    await expect(store().get(prefix)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('deletes a blob', async () => {
    const k = key('gone.pdf');
    await store().put(k, Buffer.from('x'), 'application/pdf');
    await store().delete(k);
    expect(await store().stat(k)).toBeNull();
    await expect(store().get(k)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('lists the blobs under a prefix at any depth, by key, with their sizes and content types; an unknown prefix has none', async () => {
    const base = `organisations/${randomUUID()}/assets`;
    await store().put(`${base}/logo.png`, Buffer.from('png'), 'image/png');
    await store().put(`${base}/legal/terms.pdf`, Buffer.from('%PDF-1.7'), 'application/pdf');
    await store().put(`${base}/legal/b.svg`, Buffer.from('<svg/>'), 'image/svg+xml');
    await store().put(`${base}-other/x.png`, Buffer.from('x'), 'image/png');
    expect(await store().list(base, { limit: 10 })).toEqual({
      blobs: [
        { key: `${base}/legal/b.svg`, sizeBytes: 6, contentType: 'image/svg+xml' },
        { key: `${base}/legal/terms.pdf`, sizeBytes: 8, contentType: 'application/pdf' },
        { key: `${base}/logo.png`, sizeBytes: 3, contentType: 'image/png' },
      ],
      truncated: false,
    });
    expect((await store().list(`${base}/legal`, { limit: 10 })).blobs).toHaveLength(2);
    expect(await store().list(`organisations/${randomUUID()}`, { limit: 10 })).toEqual({ blobs: [], truncated: false });
    await expect(store().list('../escape', { limit: 10 })).rejects.toBeInstanceOf(InvalidBlobKeyError);
  });

  it('bounded listing: more blobs than the limit answers the first `limit` in key order, truncated, and the page after its last key continues where it stopped', async () => {
    const base = `organisations/${randomUUID()}/assets`;
    // key order is by character, a directory among files where its keys fall: `a-c.png` < `a.png` < `a/…` < `b.png` < `c/…` < `c0.png`
    const names = ['c0.png', 'a/z.png', 'b.png', 'a-c.png', 'c/d/e.png', 'a.png', 'a/b.png'];
    for (const name of names) await store().put(`${base}/${name}`, Buffer.from(name), 'image/png');
    const keys = (listing: { blobs: Array<{ key: string }> }) => listing.blobs.map((b) => b.key.slice(base.length + 1));

    const first = await store().list(base, { limit: 3 });
    expect(keys(first)).toEqual(['a-c.png', 'a.png', 'a/b.png']);
    expect(first.truncated).toBe(true);
    expect(first.blobs[2]).toEqual({ key: `${base}/a/b.png`, sizeBytes: 'a/b.png'.length, contentType: 'image/png' });
    const second = await store().list(base, { limit: 3, after: first.blobs[2].key });
    expect(keys(second)).toEqual(['a/z.png', 'b.png', 'c/d/e.png']);
    expect(second.truncated).toBe(true);
    const last = await store().list(base, { limit: 3, after: second.blobs[2].key });
    expect(keys(last)).toEqual(['c0.png']);
    expect(last.truncated).toBe(false);

    // exactly the limit is not truncated; `after` need not be a stored key
    const whole = await store().list(base, { limit: 7 });
    expect(keys(whole)).toEqual(['a-c.png', 'a.png', 'a/b.png', 'a/z.png', 'b.png', 'c/d/e.png', 'c0.png']);
    expect(whole.truncated).toBe(false);
    expect(keys(await store().list(base, { limit: 2, after: `${base}/a/m` }))).toEqual(['a/z.png', 'b.png']);
    expect(await store().list(base, { limit: 2, after: `${base}/c1` })).toEqual({ blobs: [], truncated: false });
  });

  it.each([0, -1, 1.5, 1001])('bounded listing: refuses the limit %p (1 to 1000: no listing reads a prefix whole)', async (limit) => {
    await expect(store().list('organisations/x', { limit })).rejects.toBeInstanceOf(RangeError);
  });

  it.each(['../escape', 'a/../../escape', '/etc/passwd', 'a\\..\\b', 'a//b', 'a/./b', '', 'a/\u0000b'])(
    'refuses the key %j with InvalidBlobKeyError',
    async (bad) => {
      await expect(store().put(bad, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store().get(bad)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store().stat(bad)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store().delete(bad)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    },
  );

  it('answers ping when reachable', async () => {
    await expect(store().ping()).resolves.toBeUndefined();
  });
}
