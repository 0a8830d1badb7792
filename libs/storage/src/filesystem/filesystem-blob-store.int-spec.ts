import { access, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InvalidBlobKeyError } from '../blob-key';
import { describeBlobStoreBehaviour } from '../testing/blob-store.behaviour';
import { FilesystemBlobStore } from './filesystem-blob-store';

describe('FilesystemBlobStore', () => {
  let parent: string;
  let root: string;
  let store: FilesystemBlobStore;

  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'docrender-blobs-'));
    root = path.join(parent, 'root');
    store = await FilesystemBlobStore.open(root);
  });

  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  describeBlobStoreBehaviour(() => store);

  it('keeps the blob as a plain file under the root, with its content type beside it unless the extension implies it', async () => {
    await store.put('org-1/doc.pdf', Buffer.from('pdf'), 'application/pdf');
    expect(await readFile(path.join(root, 'org-1', 'doc.pdf'), 'utf8')).toBe('pdf');
    expect(await readdir(path.join(root, 'org-1'))).toEqual(['doc.pdf']);
    await store.put('org-1/font.woff2', Buffer.from('woff2'), 'font/woff2');
    expect(await readFile(path.join(root, 'org-1', 'font.woff2.content-type'), 'utf8')).toBe('font/woff2');
  });

  it('a key put again with the type its extension implies loses the content-type file of its earlier type', async () => {
    await store.put('org-1/odd.pdf', Buffer.from('x'), 'application/octet-stream');
    expect(await store.stat('org-1/odd.pdf')).toEqual({ key: 'org-1/odd.pdf', sizeBytes: 1, contentType: 'application/octet-stream' });
    await store.put('org-1/odd.pdf', Buffer.from('%PDF'), 'application/pdf');
    expect(await store.stat('org-1/odd.pdf')).toEqual({ key: 'org-1/odd.pdf', sizeBytes: 4, contentType: 'application/pdf' });
    await expect(access(path.join(root, 'org-1', 'odd.pdf.content-type'))).rejects.toThrow();
  });

  it('a put whose stale content-type file cannot be removed (a directory has that name) fails and leaves no temporary file', async () => {
    await store.put('org-3/odd.pdf.content-type/inner.bin', Buffer.from('x'), 'application/octet-stream');
    await expect(store.put('org-3/odd.pdf', Buffer.from('%PDF'), 'application/pdf')).rejects.toThrow();
    expect(await store.stat('org-3/odd.pdf')).toBeNull();
    expect(await readdir(path.join(root, '.incoming'))).toEqual([]);
  });

  it('a directory deleted from outside after the store wrote into it is created again by the next put', async () => {
    await store.put('org-2/documents/a.pdf', Buffer.from('a'), 'application/pdf');
    await rm(path.join(root, 'org-2'), { recursive: true });
    await store.put('org-2/documents/b.pdf', Buffer.from('b'), 'application/pdf');
    expect((await store.get('org-2/documents/b.pdf')).toString()).toBe('b');
    expect(await readdir(path.join(root, '.incoming'))).toEqual([]);
  });

  it('remembers a bounded number of directories (one per transient render would grow without end), and a forgotten one is written into again', async () => {
    const bounded = await FilesystemBlobStore.open(path.join(parent, 'bounded'), { rememberedDirectories: 2 });
    for (const request of ['r1', 'r2', 'r3']) await bounded.put(`org-1/transient/${request}/0.pdf`, Buffer.from(request), 'application/pdf');
    expect(bounded.knownDirectoryCount).toBe(2);
    await bounded.put('org-1/transient/r1/1.pdf', Buffer.from('again'), 'application/pdf');
    expect((await bounded.get('org-1/transient/r1/1.pdf')).toString()).toBe('again');
    expect(bounded.knownDirectoryCount).toBe(2);
  });

  it('path escapes write nothing outside the root', async () => {
    for (const key of ['../outside', 'a/../../outside', '/tmp/outside', '..\\outside']) {
      await expect(store.put(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(InvalidBlobKeyError);
    }
    expect(await readdir(parent)).not.toContain('outside');
    await expect(access('/tmp/outside')).rejects.toThrow();
  });

  it('reserves its own names: the temporary directory and content-type files', async () => {
    await expect(store.put('.incoming/x', Buffer.from('x'), 'text/plain')).rejects.toThrow(/reserved/);
    await expect(store.put('a.pdf.content-type', Buffer.from('x'), 'text/plain')).rejects.toThrow(/reserved/);
  });

  it('leaves no temporary files behind after writes', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put(`concurrent/${i % 3}.bin`, Buffer.alloc(10_000, i), 'application/octet-stream')));
    expect(await readdir(path.join(root, '.incoming'))).toEqual([]);
    const sizes = await Promise.all([0, 1, 2].map(async (i) => (await store.get(`concurrent/${i}.bin`)).length));
    expect(sizes).toEqual([10_000, 10_000, 10_000]);
  });

  it('a put that fails (the key names a directory) leaves no temporary file behind', async () => {
    await store.put('taken/inner.bin', Buffer.from('x'), 'text/plain');
    await expect(store.put('taken', Buffer.from('y'), 'text/plain')).rejects.toThrow();
    expect(await readdir(path.join(root, '.incoming'))).toEqual([]);
  });

  it('a blob file without its content-type file reads as the type its extension implies, else application/octet-stream', async () => {
    await writeFile(path.join(root, 'legacy.bin'), 'abc');
    expect(await store.stat('legacy.bin')).toEqual({ key: 'legacy.bin', sizeBytes: 3, contentType: 'application/octet-stream' });
    await writeFile(path.join(root, 'legacy.png'), 'png');
    expect(await store.stat('legacy.png')).toEqual({ key: 'legacy.png', sizeBytes: 3, contentType: 'image/png' });
  });

  it('a replaced blob is never seen half-written: readers get the old or the new content', async () => {
    const oldBody = Buffer.alloc(2 * 1024 * 1024, 1);
    const newBody = Buffer.alloc(2 * 1024 * 1024, 2);
    await store.put('swap.bin', oldBody, 'application/octet-stream');
    const reads: Buffer[] = [];
    const writing = store.put('swap.bin', newBody, 'application/octet-stream');
    for (let i = 0; i < 10; i++) reads.push(await store.get('swap.bin'));
    await writing;
    reads.push(await store.get('swap.bin'));
    for (const read of reads) expect(read.equals(oldBody) || read.equals(newBody)).toBe(true);
    expect(reads[reads.length - 1]?.equals(newBody)).toBe(true);
  });

  it('ping fails when the root has gone', async () => {
    const other = await FilesystemBlobStore.open(path.join(parent, 'short-lived'));
    await rm(path.join(parent, 'short-lived'), { recursive: true });
    await expect(other.ping()).rejects.toThrow();
  });
});
