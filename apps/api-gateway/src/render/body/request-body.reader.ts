import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { DomainError, ErrorCode, Limits } from '@docrender/contracts';
import { SCAN_ON_EVENT_LOOP_MAX_BYTES } from './json-scan.pool';
import { ValueSizeGuard } from './value-size.guard';

/** The media type of a Content-Type header, lower case, without parameters; null when absent. */
export function mediaTypeOf(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  return contentType.split(';', 1)[0].trim().toLowerCase();
}

/**
 * Output chunk of the decompressors: each chunk is one round trip to libuv's thread pool, so Node's 16 KiB default
 * makes inflating 50 MB (where a bomb is stopped) several times slower than this.
 */
const INFLATE_CHUNK_BYTES = 256 * 1024;

function decompressorFor(contentEncoding: string | undefined): Transform | null {
  const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip({ chunkSize: INFLATE_CHUNK_BYTES });
    case 'deflate':
      return zlib.createInflate({ chunkSize: INFLATE_CHUNK_BYTES });
    case 'br':
      return zlib.createBrotliDecompress({ chunkSize: INFLATE_CHUNK_BYTES });
    default:
      throw new DomainError(ErrorCode.BindingError, `Content-Encoding ${JSON.stringify(encoding)} is not supported: use gzip, deflate, br or none`);
  }
}

function checkContentType(contentType: string | undefined): void {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType !== null && mediaType !== 'application/json') {
    throw new DomainError(ErrorCode.BindingError, `Content-Type must be application/json, got ${JSON.stringify(mediaType)}`);
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new DomainError(ErrorCode.BindingError, `the body must be UTF-8 JSON, got charset ${JSON.stringify(charset)}`);
  }
}

const tooLarge = (maxBytes: number): DomainError =>
  new DomainError(ErrorCode.PayloadTooLarge, `request body exceeds ${maxBytes} bytes (counted after decompression)`);

/** One buffer of the chunks; shared memory when it is large enough to be scanned on a worker thread. */
function assemble(chunks: Buffer[], total: number): Buffer {
  if (total <= SCAN_ON_EVENT_LOOP_MAX_BYTES) return Buffer.concat(chunks, total);
  const body = Buffer.from(new SharedArrayBuffer(total));
  let offset = 0;
  for (const chunk of chunks) {
    chunk.copy(body, offset);
    offset += chunk.length;
  }
  return body;
}

const documentTooLarge = (name: string): DomainError =>
  new DomainError(ErrorCode.PayloadTooLarge, `${name} is over ${Limits.maxDocumentBytes} bytes of JSON; the limit is ${Limits.maxDocumentBytes} bytes (50 MB) per document`);

export type BodyLimits = {
  /** The route's cap on the whole body, counted after decompression. */
  maxBytes: number;
  /** Members whose array elements are documents (each held to the per-document limit rather than the member). */
  splitKeys: readonly string[];
};

/**
 * Reads a JSON request body as bytes: UTF-8 `application/json` (or no Content-Type), optionally gzip, deflate or br
 * compressed, inflated as a stream and counted while it inflates. It stops reading and answers 413 PayloadTooLarge
 * once the body passes the route's `maxBytes`, or once one top-level member or one document (an element of a
 * `splitKeys` member) passes the 50 MB per-document limit (spec 8), so memory never exceeds what the route allows.
 * Nothing is parsed here. Throws 422 BindingError for another media type, charset or encoding, a corrupt compressed
 * body, or a body that stops before its end. Called only after the API key was checked (the controllers' guards):
 * no body byte of an unauthenticated request is read.
 */
export function readRequestBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const { maxBytes } = limits;
  if (req.readableEnded) return Promise.reject(new Error('the request body was already consumed'));
  try {
    checkContentType(req.headers['content-type']);
  } catch (error) {
    return Promise.reject(error);
  }
  let decompressor: Transform | null;
  try {
    decompressor = decompressorFor(req.headers['content-encoding']);
  } catch (error) {
    return Promise.reject(error);
  }
  const declared = Number(req.headers['content-length']);
  if (decompressor === null && Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge(maxBytes));

  const source: Readable = decompressor ?? req;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const guard = new ValueSizeGuard(limits.splitKeys, Limits.maxDocumentBytes);
    let total = 0;
    let settled = false;
    const finish = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onSourceError);
      req.off('error', onRequestError);
      req.off('close', onClose);
      if (decompressor) {
        req.unpipe(decompressor);
        decompressor.destroy();
      }
      if (error) {
        chunks.length = 0;
        req.pause();
        reject(error);
      } else {
        resolve(assemble(chunks, total));
      }
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > maxBytes) return finish(tooLarge(maxBytes));
      const oversized = guard.feed(chunk);
      if (oversized !== null) return finish(documentTooLarge(oversized));
      chunks.push(chunk);
    };
    const onEnd = (): void => finish(null);
    const onSourceError = (error: Error): void =>
      finish(decompressor ? new DomainError(ErrorCode.BindingError, `request body could not be decompressed: ${error.message}`) : error);
    const onRequestError = (error: Error): void => finish(error);
    const onClose = (): void => {
      if (!req.complete) finish(new DomainError(ErrorCode.BindingError, 'request body ended before its announced end'));
    };
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onSourceError);
    if (decompressor) req.on('error', onRequestError);
    req.on('close', onClose);
    if (decompressor) req.pipe(decompressor);
  });
}
