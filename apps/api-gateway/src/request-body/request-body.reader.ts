import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { DomainError, ErrorCode, Limits } from '@docrender/contracts';
import { BodyBytes } from './body-bytes';
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

const documentTooLarge = (name: string): DomainError =>
  new DomainError(ErrorCode.PayloadTooLarge, `${name} is over ${Limits.maxDocumentBytes} bytes of JSON; the limit is ${Limits.maxDocumentBytes} bytes (50 MB) per document`);

/**
 * The two size limits of a body (the route's cap on the whole body, spec 8's 50 MB per document) decided by byte
 * position, not by how the bytes arrive: the answer is the limit passed first in the body, whatever the chunking (of
 * the network or of the inflater). Only the bytes up to the body's cap are looked at for an oversized document, so a
 * document that passes 50 MB within the cap is a per-document 413, and a body that passes its cap first is a body 413.
 * (An uncompressed body whose Content-Length is over the cap is refused by that header, before any byte is read.)
 */
export class BodyLimitCounter {
  private total = 0;
  private readonly guard: ValueSizeGuard;

  constructor(private readonly limits: BodyLimits) {
    this.guard = new ValueSizeGuard(limits.splitKeys, Limits.maxDocumentBytes);
  }

  /** Counts the next bytes: the 413 they cause, or null. */
  feed(chunk: Buffer): DomainError | null {
    const room = this.limits.maxBytes - this.total;
    const oversized = this.guard.feed(chunk.length > room ? chunk.subarray(0, room) : chunk);
    if (oversized !== null) return documentTooLarge(oversized);
    this.total += chunk.length;
    return this.total > this.limits.maxBytes ? tooLarge(this.limits.maxBytes) : null;
  }

  /** Bytes counted so far. */
  get bytes(): number {
    return this.total;
  }
}

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
    const bytes = new BodyBytes(maxBytes);
    const counter = new BodyLimitCounter(limits);
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
        bytes.drop();
        req.pause();
        reject(error);
      } else {
        resolve(bytes.body());
      }
    };
    const onData = (chunk: Buffer): void => {
      const exceeded = counter.feed(chunk);
      if (exceeded !== null) return finish(exceeded);
      bytes.append(chunk);
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
