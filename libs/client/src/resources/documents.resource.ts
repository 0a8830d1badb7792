import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { PagedResult, StoredDocumentDto } from '@docrender/contracts';
import { ResponseDecodeError } from '../errors/transport.error';
import { fileNameOf } from '../http/content-disposition';
import { CallerSideFailure, type RequestOptions } from '../http/http-transport';
import { assertPdfContentType, readJson, readPaged, readPdf } from '../http/response-body';
import { SHAPES } from '../http/response-shapes';
import { listQuery, type ListParams } from '../listing/list-params';
import { paginate, pinned, type IterateOptions } from '../listing/paginate';
import { getJson, segment, timeoutOf, type ClientContext } from './client-context';

/** A streamed PDF download. */
export type DocumentDownload = {
  /** The PDF bytes as they arrive; the caller's signal (if any) still aborts it. */
  stream: Readable;
  /** `<documentName>.pdf` from Content-Disposition, or null. */
  fileName: string | null;
  /** Content-Length, or null when the service did not send one. */
  contentLength: number | null;
};

/** Stored documents of spec 4.13–4.15. Every call is a read: retried on transient failures. */
export class DocumentsResource {
  constructor(private readonly context: ClientContext) {}

  /** One page of stored documents (only renders made with persist=true). */
  list(params: ListParams<'documents'> = {}, options: RequestOptions = {}): Promise<PagedResult<StoredDocumentDto>> {
    return getJson(this.context, { path: '/v1/documents', query: listQuery(params) }, options, (response, request) =>
      readPaged<StoredDocumentDto>(response, request, SHAPES.storedDocument),
    );
  }

  /**
   * Every document matching `params`, page after page (spec 4.1). `pin` adds `renderedAt lte <time>` so that documents
   * rendered while the pages are read do not shift the offsets.
   */
  listAll(params: ListParams<'documents'> = {}, options: IterateOptions & RequestOptions = {}): AsyncGenerator<StoredDocumentDto, void, undefined> {
    const fixed = pinned('documents', params, options);
    return paginate((skip) => this.list({ ...fixed, skip }, options), params.skip ?? 0);
  }

  /** One document's metadata. */
  get(documentId: string, options: RequestOptions = {}): Promise<StoredDocumentDto> {
    return getJson(this.context, { path: `/v1/documents/${segment(documentId)}` }, options, (response, request) =>
      readJson<StoredDocumentDto>(response, request, SHAPES.storedDocument),
    );
  }

  /**
   * The PDF in memory.
   * @throws NotFoundError (DocumentNotFound), ApiError with status 410 and code PdfDeleted when retention purged it
   */
  download(documentId: string, options: RequestOptions = {}): Promise<Buffer> {
    return this.context.transport.send(this.fileCall(documentId, options, false), readPdf);
  }

  /**
   * Writes the PDF to `filePath` (through a temporary file beside it, renamed when complete, so a failed download
   * leaves nothing behind). The time limit covers the whole transfer. A file-system failure is thrown as Node's own
   * error (not retried, not a ConnectionError).
   */
  downloadToFile(documentId: string, filePath: string, options: RequestOptions = {}): Promise<{ path: string; bytes: number }> {
    return this.context.transport.send(this.fileCall(documentId, options, false), async (response, request) => {
      assertPdfContentType(response, request);
      const partial = `${filePath}.${randomBytes(4).toString('hex')}.part`;
      const output = createWriteStream(partial);
      let fileError: unknown = null;
      output.once('error', (error) => (fileError = error));
      try {
        await pipeline(bodyStream(response, request), output);
      } catch (error) {
        await rm(partial, { force: true });
        throw fileError === null ? error : new CallerSideFailure(fileError);
      }
      try {
        await rename(partial, filePath);
      } catch (error) {
        await rm(partial, { force: true });
        throw new CallerSideFailure(error);
      }
      return { path: filePath, bytes: output.bytesWritten };
    });
  }

  /** The PDF as a stream; the time limit ends when the answer's headers arrive. */
  downloadStream(documentId: string, options: RequestOptions = {}): Promise<DocumentDownload> {
    return this.context.transport.send(this.fileCall(documentId, options, true), async (response, request) => {
      assertPdfContentType(response, request);
      const length = response.headers.get('content-length');
      return {
        stream: bodyStream(response, request),
        fileName: fileNameOf(response.headers.get('content-disposition')),
        contentLength: length === null ? null : Number(length),
      };
    });
  }

  private fileCall(documentId: string, options: RequestOptions, streaming: boolean) {
    return {
      method: 'GET' as const,
      path: `/v1/documents/${segment(documentId)}/file`,
      accept: 'application/pdf' as const,
      retryable: true,
      timeoutMs: timeoutOf(options, this.context.readTimeoutMs),
      signal: options.signal,
      streaming,
    };
  }
}

function bodyStream(response: Response, request: string): Readable {
  if (response.body === null) throw new ResponseDecodeError(request, response.status, response.headers.get('content-type'), 'the answer has no body');
  return Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>);
}
