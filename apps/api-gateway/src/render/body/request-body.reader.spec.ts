import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { DomainError, ErrorCode, Limits } from '@docrender/contracts';
import { readRequestBody } from './request-body.reader';
import { SCAN_ON_EVENT_LOOP_MAX_BYTES } from './json-scan.pool';

type Outcome = { body: Buffer; shared: boolean } | { code: ErrorCode; message: string };

/** A local HTTP server whose handler runs readRequestBody and reports what it gave. */
describe('readRequestBody', () => {
  let server: http.Server;
  let url: string;
  let maxBytes = 1024 * 1024;
  let outcome: Promise<Outcome>;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      outcome = readRequestBody(req, { maxBytes, splitKeys: ['documents'] }).then(
        (body) => ({ body, shared: body.buffer instanceof SharedArrayBuffer }),
        (error: unknown) => {
          if (!(error instanceof DomainError)) throw error;
          return { code: error.code, message: error.message };
        },
      );
      void outcome.then(() => res.end('done'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    maxBytes = 1024 * 1024;
  });

  async function send(body: Buffer, headers: Record<string, string> = {}): Promise<Outcome> {
    await fetch(url, { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': 'application/json', ...headers } }).then((r) => r.text()).catch(() => undefined);
    return outcome;
  }

  const json = Buffer.from('{"documents":[{"a":"é"}]}');

  it('reads a plain UTF-8 JSON body as bytes', async () => {
    await expect(send(json)).resolves.toEqual({ body: json, shared: false });
  });

  it('accepts a missing Content-Type and an explicit utf-8 charset', async () => {
    await expect(send(json, { 'content-type': 'application/json; charset=UTF-8' })).resolves.toMatchObject({ body: json });
    await fetch(url, { method: 'POST', body: new Uint8Array(json) }).then((r) => r.text());
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
    const over = Limits.maxDocumentBytes + 1024 * 1024;
    const text = Buffer.concat([Buffer.from('{"documents":[{},{"a":"'), Buffer.alloc(over, 0x78), Buffer.from('"}]}')]);
    await expect(send(zlib.gzipSync(text), { 'content-encoding': 'gzip' })).resolves.toEqual({
      code: ErrorCode.PayloadTooLarge,
      message: `documents[1] is over ${Limits.maxDocumentBytes} bytes of JSON; the limit is ${Limits.maxDocumentBytes} bytes (50 MB) per document`,
    });
  });

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
