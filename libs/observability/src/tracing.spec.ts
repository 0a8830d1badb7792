import { trace, type ProxyTracerProvider } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { InMemorySpanExporter, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { otlpTracesUrl } from '@docrender/config';
import { JsonLogger, type Logger } from './logger';
import { currentTraceIds, inSpan, ReportingExporter, SpanKind, startTracing, traceCarrier, withTraceCarrier, type Tracing } from './tracing';

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => silent };
const delegateOf = () => (trace.getTracerProvider() as ProxyTracerProvider).getDelegate().constructor.name;

describe('tracing (issue 22 item 5): on with an OTLP endpoint, off otherwise', () => {
  it('without OTEL_EXPORTER_OTLP_ENDPOINT or …_TRACES_ENDPOINT no exporter is created: nothing is registered, spans do not record, nothing is injected', async () => {
    const url = otlpTracesUrl({ otlpEndpoint: undefined, otlpTracesEndpoint: undefined });
    expect(url).toBeUndefined();
    const exporters: string[] = [];
    expect(startTracing('api-gateway', url, silent, (u) => (exporters.push(u), new InMemorySpanExporter()))).toBeNull();
    expect(exporters).toEqual([]);
    expect(delegateOf()).toBe('NoopTracerProvider');
    expect(trace.getTracer('t').startSpan('s').isRecording()).toBe(false);
    await inSpan('work', { kind: SpanKind.CONSUMER, attributes: () => { throw new Error('attributes are not built when tracing is off'); } }, async (span) => {
      expect(span).toBeUndefined();
      expect(traceCarrier()).toBeNull();
      expect(currentTraceIds()).toEqual({});
    });
    expect(withTraceCarrier({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }, () => currentTraceIds())).toEqual({});
  });

  it('the traces endpoint wins; the base endpoint gets /v1/traces', () => {
    expect(otlpTracesUrl({ otlpEndpoint: 'http://collector:4318/', otlpTracesEndpoint: undefined })).toBe('http://collector:4318/v1/traces');
    expect(otlpTracesUrl({ otlpEndpoint: 'http://collector:4318', otlpTracesEndpoint: 'https://traces.example/otlp' })).toBe('https://traces.example/otlp');
  });

  describe('with an endpoint', () => {
    /** Keeps its spans past shutdown (InMemorySpanExporter forgets them), which is when the batch is flushed. */
    class KeepingExporter extends InMemorySpanExporter {
      override shutdown(): Promise<void> {
        return Promise.resolve();
      }
    }
    const exported = new KeepingExporter();
    const exporters: string[] = [];
    let tracing: Tracing | null;

    beforeAll(() => {
      const url = otlpTracesUrl({ otlpEndpoint: 'http://collector:4318', otlpTracesEndpoint: undefined });
      tracing = startTracing('job-worker', url, silent, (u) => (exporters.push(u), exported));
    });
    afterAll(async () => {
      await tracing?.shutdown();
    });

    it('spans nest across awaits, travel as W3C traceparent, continue from a carrier, reach log lines, and are handed to the exporter', async () => {
      expect(exporters).toEqual(['http://collector:4318/v1/traces']);
      expect(delegateOf()).toBe('TracerProvider');
      const lines: string[] = [];
      const logger = new JsonLogger('job-worker', 'info', {}, (line) => lines.push(line));
      const carrier = await inSpan('job.run process', { kind: SpanKind.CONSUMER, attributes: { 'docrender.job_id': 'j-1' } }, async (span) => {
        await Promise.resolve();
        logger.info('inside');
        return { ids: span!.spanContext(), carrier: traceCarrier() };
      });
      expect(carrier.carrier).toEqual({ traceparent: `00-${carrier.ids.traceId}-${carrier.ids.spanId}-01` });
      expect(JSON.parse(lines[0])).toMatchObject({ trace_id: carrier.ids.traceId, span_id: carrier.ids.spanId });
      const child = await withTraceCarrier(carrier.carrier, () => inSpan('render.document publish', { kind: SpanKind.PRODUCER }, async (span) => span!.spanContext()));
      expect(child.traceId).toBe(carrier.ids.traceId);
      // Without a carrier: a trace of its own, not the caller's.
      const own = await inSpan('outer', {}, () => withTraceCarrier(null, () => inSpan('relay publish', {}, async (span) => span!.spanContext())));
      expect(own.traceId).not.toBe(carrier.ids.traceId);
      await expect(inSpan('failing', {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');

      await tracing!.shutdown();
      tracing = null;
      const spans = exported.getFinishedSpans();
      const byName = new Map(spans.map((s) => [s.name, s]));
      expect([...byName.keys()].sort()).toEqual(['failing', 'job.run process', 'outer', 'relay publish', 'render.document publish']);
      expect(byName.get('job.run process')!.resource.attributes['service.name']).toBe('job-worker');
      expect(byName.get('render.document publish')!.parentSpanContext?.spanId).toBe(carrier.ids.spanId);
      expect(byName.get('failing')!.status).toMatchObject({ code: 2, message: 'boom' });
      expect(delegateOf()).toBe('NoopTracerProvider');
      expect(traceCarrier()).toBeNull();
    });
  });
});

describe('tracing: an export that fails is said, not dropped without a word (nothing fails silently)', () => {
  /** An exporter whose receiver refuses every export, as an OTLP endpoint that is down does. */
  const refusing: SpanExporter = {
    export: (_spans, done) => done({ code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED 127.0.0.1:4318') }),
    shutdown: () => Promise.resolve(),
  };
  const spans = (n: number) => Array.from({ length: n }, () => ({}) as ReadableSpan);

  it('logs the first failure at once with the spans lost, then at most one line a minute counting the spans lost since', () => {
    const warnings: { message: string; fields: unknown }[] = [];
    const logger: Logger = { ...silent, warn: (message, fields) => warnings.push({ message, fields }) };
    let now = 1_000_000;
    const exporter = new ReportingExporter(refusing, logger, 'http://collector:4318/v1/traces', () => now);
    const results: number[] = [];
    exporter.export(spans(3), (r) => results.push(r.code));
    now += 30_000;
    exporter.export(spans(2), (r) => results.push(r.code));
    now += 30_000;
    exporter.export(spans(4), (r) => results.push(r.code));
    expect(results).toEqual([ExportResultCode.FAILED, ExportResultCode.FAILED, ExportResultCode.FAILED]);
    expect(warnings).toEqual([
      { message: 'traces could not be exported; these spans are lost', fields: { url: 'http://collector:4318/v1/traces', spansLost: 3, reason: 'connect ECONNREFUSED 127.0.0.1:4318' } },
      { message: 'traces could not be exported; these spans are lost', fields: { url: 'http://collector:4318/v1/traces', spansLost: 6, reason: 'connect ECONNREFUSED 127.0.0.1:4318' } },
    ]);
  });

  it('a successful export logs nothing', () => {
    const warnings: string[] = [];
    const exporter = new ReportingExporter(new InMemorySpanExporter(), { ...silent, warn: (message) => warnings.push(message) }, 'http://collector:4318/v1/traces');
    exporter.export(spans(1), () => undefined);
    expect(warnings).toEqual([]);
  });
});
