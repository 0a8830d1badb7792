import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { DomainError, ErrorCode, Limits } from '@docrender/contracts';
import { BodyLimitCounter, readRequestBody } from './request-body.reader';
import { SCAN_ON_EVENT_LOOP_MAX_BYTES } from './json-scan.pool';

type Outcome = { body: Buffer; shared: boolean } | { code: ErrorCode; message: string };

const documentOver = `documents[1] is over ${Limits.maxDocumentBytes} bytes of JSON; the limit is ${Limits.maxDocumentBytes} bytes (50 MB) per document`;

/** `{"documents":[{},{"a":"xxx…"}]}` whose second document is `over` bytes of string content. */
function bodyWithLargeDocument(over: number): Buffer {
  return Buffer.concat([Buffer.from('{"documents":[{},{"a":"'), Buffer.alloc(over, 0x78), Buffer.from('"}]}')]);
}

/** The body cut into chunks of `size` bytes (the last one shorter). */
function chunked(body: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) chunks.push(body.subarray(at, at + size));
  return chunks;
}

/** A local HTTP server whose handler runs readRequestBody and reports what it gave. */
describe('readRequestBody', () => {
  let server: http.Server;
  let port: number;
  let maxBytes = 1024 * 1024;
  /** Each request's outcome, handed to the send that made it (one connection per request, so none is mixed up). */
  let nextOutcome: ((outcome: Promise<Outcome>) => void) | null = null;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const outcome = readRequestBody(req, { maxBytes, splitKeys: ['documents'] }).then(
        (body) => ({ body, shared: body.buffer instanceof SharedArrayBuffer }),
        (error: unknown) => {
          if (!(error instanceof DomainError)) throw error;
          return { code: error.code, message: error.message };
        },
      );
      nextOutcome?.(outcome);
      nextOutcome = null;
      void outcome.finally(() => res.end('done'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    maxBytes = 1024 * 1024;
  });

  /**
   * POSTs the chunks on a connection of its own, each written once the previous one was flushed, and answers what
   * the server's reader gave. Without a Content-Length header (chunked transfer encoding) unless `headers` has one.
   */
  async function sendChunks(chunks: Buffer[], headers: Record<string, string> = {}): Promise<Outcome> {
    const outcome = new Promise<Outcome>((resolve) => (nextOutcome = resolve));
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } });
    req.on('response', (res) => res.resume());
    // The server may answer (and close) before every byte is written: that is the point of a limit.
    req.on('error', () => undefined);
    for (const chunk of chunks) {
      if (req.destroyed) break;
      await new Promise<void>((resolve) => req.write(chunk, () => resolve()));
    }
    req.end();
    return outcome;
  }
  const send = (body: Buffer, headers: Record<string, string> = {}): Promise<Outcome> => sendChunks([body], { 'content-length': String(body.length), ...headers });

  const json = Buffer.from('{"documents":[{"a":"é"}]}');

  it('reads a plain UTF-8 JSON body as bytes', async () => {
    await expect(send(json)).resolves.toEqual({ body: json, shared: false });
  });

  it('accepts a missing Content-Type and an explicit utf-8 charset', async () => {
    await expect(send(json, { 'content-type': 'application/json; charset=UTF-8' })).resolves.toMatchObject({ body: json });
    const outcome = new Promise<Outcome>((resolve) => (nextOutcome = resolve));
    await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: new Uint8Array(json) }).then((r) => r.text());
    await expect(outcome).resolves.toMatchObject({ body: json });
  });

  it.each([
    ['gzip', zlib.gzipSync],
    ['x-gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ] as const)('decompresses a %s body', async (encoding, compress) => {
    await expect(send(compress(json), { 'content-encoding': encoding })).resolves.toEqual({ body: json, shared: false });
  });

  it('keeps a large body in shared memory, for the scan workers', async () => {
    const large = Buffer.from(`{"x":"${'y'.repeat(SCAN_ON_EVENT_LOOP_MAX_BYTES)}"}`);
    await expect(send(large)).resolves.toEqual({ body: large, shared: true });
  });

  it('8: 413 PayloadTooLarge for a body over the limit', async () => {
    maxBytes = 1000;
    await expect(send(Buffer.alloc(1001, 0x20))).resolves.toMatchObject({ code: ErrorCode.PayloadTooLarge });
  });

  it('8: a compressed body is limited after decompression (a small gzip of many bytes is refused)', async () => {
    maxBytes = 1024 * 1024;
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.byteLength).toBeLessThan(maxBytes);
    await expect(send(bomb, { 'content-encoding': 'gzip' })).resolves.toMatchObject({
      code: ErrorCode.PayloadTooLarge,
      message: 'request body exceeds 1048576 bytes (counted after decompression)',
    });
  });

  it('8: 413 PayloadTooLarge as soon as one document of a compressed body passes 50 MB, before the body ends', async () => {
    maxBytes = 1024 * 1024 * 1024;
    const text = bodyWithLargeDocument(Limits.maxDocumentBytes + 1024 * 1024);
    await expect(send(zlib.gzipSync(text), { 'content-encoding': 'gzip' })).resolves.toEqual({ code: ErrorCode.PayloadTooLarge, message: documentOver });
  });

  // Issue 37: the body's cap and the per-document limit raced (the chunk that passed both decided which 413 came
  // back). The limit passed first in the body decides, however the bytes arrive.
  it.each([[0], [64 * 1024], [1024 * 1024 + 7], [16 * 1024 * 1024]])(
    '8: a document that passes 50 MB before the body passes its cap is the per-document 413, sent in chunks of %d bytes (0: one write)',
    async (size) => {
      const body = bodyWithLargeDocument(Limits.maxDocumentBytes + 1024);
      maxBytes = Limits.maxDocumentBytes + 512;
      const chunks = size === 0 ? [body] : chunked(body, size);
      await expect(sendChunks(chunks)).resolves.toEqual({ code: ErrorCode.PayloadTooLarge, message: documentOver });
    },
  );

  it.each([
    [{ 'content-type': 'text/plain' }, 'Content-Type must be application/json, got "text/plain"'],
    [{ 'content-type': 'application/json; charset=latin1' }, 'the body must be UTF-8 JSON, got charset "latin1"'],
    [{ 'content-encoding': 'compress' }, 'Content-Encoding "compress" is not supported: use gzip, deflate, br or none'],
  ])('422 BindingError for %j', async (headers, message) => {
    await expect(send(json, headers)).resolves.toEqual({ code: ErrorCode.BindingError, message });
  });

  it('422 BindingError for a corrupt compressed body', async () => {
    await expect(send(Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' })).resolves.toMatchObject({
      code: ErrorCode.BindingError,
      message: expect.stringContaining('request body could not be decompressed'),
    });
  });
});

describe('BodyLimitCounter (issue 37: the same limit decides whatever the chunking)', () => {
  const cap = Limits.maxDocumentBytes + 4096;
  const chunkings: [string, (body: Buffer) => Buffer[]][] = [
    ['one chunk', (body) => [body]],
    ['16 KiB chunks', (body) => chunked(body, 16 * 1024)],
    ['256 KiB chunks (the inflater)', (body) => chunked(body, 256 * 1024)],
    ['chunks of 999,983 bytes', (body) => chunked(body, 999_983)],
    // one chunk holds both the byte where the document passes 50 MB and the byte where the body passes its cap
    ['a chunk across both limits', (body) => [body.subarray(0, Limits.maxDocumentBytes - 10), body.subarray(Limits.maxDocumentBytes - 10)]],
  ];
  const outcomeOf = (chunks: Buffer[], maxBytes: number): string | null => {
    const counter = new BodyLimitCounter({ maxBytes, splitKeys: ['documents'] });
    for (const chunk of chunks) {
      const error = counter.feed(chunk);
      if (error) return error.message;
    }
    return null;
  };

  it.each(chunkings)('8: the document passes 50 MB first: the per-document 413 (%s)', (_name, cut) => {
    expect(outcomeOf(cut(bodyWithLargeDocument(cap)), cap)).toBe(documentOver);
  });

  it.each(chunkings)('8: the body passes its cap first: the whole-body 413 (%s)', (_name, cut) => {
    const body = bodyWithLargeDocument(Limits.maxDocumentBytes - 100);
    const smallCap = Limits.maxDocumentBytes - 1000;
    expect(outcomeOf(cut(body), smallCap)).toBe(`request body exceeds ${smallCap} bytes (counted after decompression)`);
  });

  it.each(chunkings)('8: a body within both limits passes (%s)', (_name, cut) => {
    expect(outcomeOf(cut(bodyWithLargeDocument(Limits.maxDocumentBytes - 100)), cap)).toBeNull();
  });
});
