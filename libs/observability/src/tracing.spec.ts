import { trace, type ProxyTracerProvider } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { otlpTracesUrl } from '@docrender/config';
import { JsonLogger } from './logger';
import { currentTraceIds, inSpan, SpanKind, startTracing, traceCarrier, withTraceCarrier, type Tracing } from './tracing';

const delegateOf = () => (trace.getTracerProvider() as ProxyTracerProvider).getDelegate().constructor.name;

describe('tracing (issue 22 item 5): on with an OTLP endpoint, off otherwise', () => {
  it('without OTEL_EXPORTER_OTLP_ENDPOINT or …_TRACES_ENDPOINT no exporter is created: nothing is registered, spans do not record, nothing is injected', async () => {
    const url = otlpTracesUrl({ otlpEndpoint: undefined, otlpTracesEndpoint: undefined });
    expect(url).toBeUndefined();
    const exporters: string[] = [];
    expect(startTracing('api-gateway', url, (u) => (exporters.push(u), new InMemorySpanExporter()))).toBeNull();
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
      tracing = startTracing('job-worker', url, (u) => (exporters.push(u), exported));
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
