import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Logger } from './logger';

export { SpanKind, type Attributes } from '@opentelemetry/api';

/** W3C trace context as message headers or a stored column: `traceparent` and, when present, `tracestate`. */
export type TraceCarrier = Record<string, string>;

/** The process's tracing, started by `startTracing`; shutting it down exports the spans still buffered. */
export type Tracing = { readonly exportUrl: string; shutdown(): Promise<void> };

const TRACER = 'docrender';

/** Set while tracing is on: every helper below is a plain call of its function otherwise (no span, no context). */
let enabled = false;

/**
 * Turns tracing on for this process when `exportUrl` is set (OTEL_EXPORTER_OTLP_ENDPOINT or …_TRACES_ENDPOINT, see
 * `otlpTracesUrl` in @docrender/config): spans of `serviceName` are batched and posted to it as OTLP JSON, the
 * active span follows async calls (AsyncLocalStorage), and context crosses processes as W3C `traceparent` /
 * `tracestate`. Without a URL nothing is registered and null is returned: no exporter, no context manager, and the
 * helpers of this file cost one boolean test each. An export that fails (receiver down, refused) is logged on
 * `logger` (ReportingExporter). `createExporter` is for tests (an in-memory exporter).
 */
export function startTracing(
  serviceName: string,
  exportUrl: string | undefined,
  logger: Logger,
  createExporter: (url: string) => SpanExporter = (url) => new OTLPTraceExporter({ url }),
): Tracing | null {
  if (exportUrl === undefined) return null;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new ReportingExporter(createExporter(exportUrl), logger, exportUrl), scheduledDelayMillis: 1_000 })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  enabled = true;
  return {
    exportUrl,
    async shutdown() {
      enabled = false;
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/**
 * An exporter that says when exporting fails: the SDK hands a failed export only to OpenTelemetry's diagnostics
 * logger, which nothing reads, so spans would be lost without a word. The first failure is logged at once, then at
 * most one line a minute with the spans lost since the last line.
 */
export class ReportingExporter implements SpanExporter {
  private lost = 0;
  private lastReport: number | null = null;

  constructor(
    private readonly inner: SpanExporter,
    private readonly logger: Logger,
    private readonly url: string,
    private readonly now: () => number = Date.now,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) this.failed(spans.length, result.error);
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }

  private failed(spans: number, error: Error | undefined): void {
    this.lost += spans;
    const now = this.now();
    if (this.lastReport !== null && now - this.lastReport < 60_000) return;
    this.logger.warn('traces could not be exported; these spans are lost', { url: this.url, spansLost: this.lost, reason: error?.message ?? 'unknown' });
    this.lost = 0;
    this.lastReport = now;
  }
}

/** The active trace context as W3C headers; null when tracing is off or no span is active. */
export function traceCarrier(): TraceCarrier | null {
  if (!enabled) return null;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent === undefined ? null : carrier;
}

/**
 * Runs `fn` with the context a carrier holds (received headers, a stored column) as the active one, and nothing
 * else: without a carrier (a message stored while tracing was off), `fn` starts a trace of its own rather than
 * continuing whatever happened to be active where it was called.
 */
export function withTraceCarrier<T>(carrier: unknown, fn: () => T): T {
  if (!enabled) return fn();
  return context.with(typeof carrier === 'object' && carrier !== null ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT, fn);
}

/**
 * Runs `fn` in a new span, a child of the active one (or of `carrier`'s context when given), ended when `fn`
 * settles; a rejection marks the span as an error. `attributes` may be a function, called only when tracing is on. `fn` is given the span to add attributes to (undefined when off).
 */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes | (() => Attributes); carrier?: unknown },
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!enabled) return fn(undefined);
  const run = (): Promise<T> =>
    trace.getTracer(TRACER).startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: typeof options.attributes === 'function' ? options.attributes() : options.attributes }, async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
      }
    });
  return options.carrier === undefined ? run() : withTraceCarrier(options.carrier, run);
}

type IncomingRequest = { method: string; path: string; headers: Record<string, string | string[] | undefined>; route?: unknown };
type OutgoingResponse = { statusCode: number; once(event: 'close', listener: () => void): unknown };

/**
 * Serves an HTTP request inside a server span (a child of the caller's `traceparent`, if any), named
 * `<method> <route>` once the route is known, with the status code and request id, ended when the response closes.
 */
export function serveInSpan(request: IncomingRequest, response: OutgoingResponse, requestId: string, next: () => void): void {
  if (!enabled) return next();
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const span = trace.getTracer(TRACER).startSpan(
    request.method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'url.path': request.path, 'docrender.request_id': requestId } },
    parent,
  );
  response.once('close', () => {
    const route = (request.route as { path?: string } | undefined)?.path;
    if (route !== undefined) {
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', response.statusCode);
    if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  context.with(trace.setSpan(parent, span), next);
}

const NO_IDS = Object.freeze({});

/** `trace_id` and `span_id` of the active span, for log lines; empty when tracing is off or no span is active. */
export function currentTraceIds(): { trace_id?: string; span_id?: string } {
  if (!enabled) return NO_IDS;
  const span = trace.getActiveSpan();
  if (span === undefined) return NO_IDS;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
