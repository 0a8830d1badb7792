import type { RenderedDocumentDto, RenderEnvelopeDto, ValidateResponseDto } from '@docrender/contracts';
import { fileNameOf } from '../http/content-disposition';
import type { HttpCall, RequestOptions } from '../http/http-transport';
import { readJson, readPdf } from '../http/response-body';
import { SHAPES } from '../http/response-shapes';
import { segment, timeoutOf, type ClientContext } from './client-context';

/** One document's data: a JSON object matching the template's bindings (any object type, interfaces included). */
export type DocumentData = object;

/** Which version a call addresses: omitted, the latest published one (spec 4.2); a number, that version (a draft too). */
export type VersionOption = { version?: number };

export type RenderOptions = RequestOptions &
  VersionOption & {
    /** Language variant of a multilingual template; one the version does not define is 400 ValidationError. */
    language?: string;
    /** Store the rendered documents (default true); with false, the PDFs come back inline and nothing is stored. */
    persist?: boolean;
    /** Each rendered document carries its PDF in documentBase64 (default false). */
    includeDocument?: boolean;
  };

export type RenderPdfOptions = Omit<RenderOptions, 'includeDocument'>;

/** The raw PDF variant of spec 4.2: the bytes and what the response headers say about them. */
export type RenderedPdf = {
  pdf: Buffer;
  /** From Content-Disposition (`<documentName>.pdf`), without the extension. */
  documentName: string | null;
  /** X-Service-Document-Id; null when persist=false. */
  documentId: string | null;
  /** X-Service-View-Url; null when persist=false. */
  viewUrl: string | null;
  pageCount: number | null;
  renderDurationMs: number | null;
  /** X-Service-Issue-Count: non-blocking issues of the document (0 when the header is absent). */
  issueCount: number;
};

export type StatelessRenderRequest = {
  /** The template DSL itself; it need not exist in the service. */
  template: object;
  data: DocumentData;
  translations?: object;
};

/** Render endpoints of spec 4.2–4.4. Renders are writes: never retried. Validation has no side effects: retried. */
export class RendersResource {
  constructor(private readonly context: ClientContext) {}

  /**
   * Renders one or more documents (a synchronous batch; a test key allows at most 10) and answers the render envelope
   * for every outcome: blocked documents are reported in `status` and `issues`, not thrown. Correlate
   * `documents[]` with the input by `documentIndex`, never by position.
   */
  render(templateId: string, documents: readonly DocumentData[], options: RenderOptions = {}): Promise<RenderEnvelopeDto> {
    return this.context.transport.send(
      renderCall(
        this.context,
        {
          path: renderPath(templateId, options.version),
          query: renderQuery(options),
          json: { documents, ...(options.includeDocument === undefined ? {} : { includeDocument: options.includeDocument }) },
          accept: 'application/json',
        },
        options,
      ),
      (response, request) => readJson<RenderEnvelopeDto>(response, request, SHAPES.renderEnvelope),
    );
  }

  /**
   * Renders one document and answers the PDF itself (`Accept: application/pdf`).
   * @throws RenderBlockedError (422) with the render envelope when the document is blocked, fails or finds no credit
   */
  renderPdf(templateId: string, document: DocumentData, options: RenderPdfOptions = {}): Promise<RenderedPdf> {
    return this.context.transport.send(
      renderCall(this.context, { path: renderPath(templateId, options.version), query: renderQuery(options), json: { documents: [document] }, accept: 'application/pdf' }, options),
      async (response, request) => {
        const pdf = await readPdf(response, request);
        const fileName = fileNameOf(response.headers.get('content-disposition'));
        return {
          pdf,
          documentName: fileName === null ? null : fileName.replace(/\.pdf$/i, ''),
          documentId: response.headers.get('x-service-document-id'),
          viewUrl: response.headers.get('x-service-view-url'),
          pageCount: numberHeader(response, 'x-service-page-count'),
          renderDurationMs: numberHeader(response, 'x-service-render-duration-ms'),
          issueCount: numberHeader(response, 'x-service-issue-count') ?? 0,
        };
      },
    );
  }

  /**
   * Renders a template given in the request (spec 4.3); nothing is stored; a test key watermarks.
   * @throws UnprocessableEntityError (422 BindingError) for an invalid DSL; RenderBlockedError when the document is blocked
   */
  renderStateless(request: StatelessRenderRequest, options: RequestOptions & { language?: string } = {}): Promise<Buffer> {
    const query = new URLSearchParams();
    if (options.language !== undefined) query.set('language', options.language);
    return this.context.transport.send(renderCall(this.context, { path: '/v1/render', query, json: request, accept: 'application/pdf' }, options), readPdf);
  }

  /**
   * Runs the checks a render would run, without rendering and without credit (spec 4.4). `issues` is flat across the
   * batch; see `isValid` for the validity rule. Retried on transient failures: it changes nothing.
   */
  validate(templateId: string, documents: readonly DocumentData[], options: RequestOptions & VersionOption = {}): Promise<ValidateResponseDto> {
    return this.context.transport.send(
      renderCall(this.context, { path: `${renderPath(templateId, options.version)}/validate`, json: { documents }, accept: 'application/json', retryable: true }, options),
      (response, request) => readJson<ValidateResponseDto>(response, request, SHAPES.validateResponse),
    );
  }
}

/**
 * A call to a render endpoint: a POST under the client's render time limit unless the call sets its own, never retried
 * (a render is a write, and the service has no idempotency keys) unless `retryable` says it changes nothing.
 */
export function renderCall(
  context: ClientContext,
  call: Pick<HttpCall, 'path' | 'query' | 'json' | 'accept'> & { retryable?: boolean },
  options: RequestOptions,
): HttpCall {
  return { method: 'POST', retryable: false, ...call, timeoutMs: timeoutOf(options, context.renderTimeoutMs), signal: options.signal };
}

/** `/v1/render/{templateId}` or `/v1/render/{templateId}/versions/{version}`. */
export function renderPath(templateId: string, version: number | undefined): string {
  return version === undefined ? `/v1/render/${segment(templateId)}` : `/v1/render/${segment(templateId)}/versions/${segment(version)}`;
}

export function renderQuery(options: { language?: string; persist?: boolean }): URLSearchParams {
  const query = new URLSearchParams();
  if (options.persist !== undefined) query.set('persist', String(options.persist));
  if (options.language !== undefined) query.set('language', options.language);
  return query;
}

/** The PDF bytes of a rendered document from its documentBase64, or null when the envelope did not carry them. */
export function pdfOf(document: Pick<RenderedDocumentDto, 'documentBase64'>): Buffer | null {
  return document.documentBase64 === null || document.documentBase64 === undefined ? null : Buffer.from(document.documentBase64, 'base64');
}

function numberHeader(response: Response, name: string): number | null {
  const value = response.headers.get(name);
  if (value === null || value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}
