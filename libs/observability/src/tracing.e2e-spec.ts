import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { JobState } from '@docrender/contracts';
import { REPO_ROOT, startAsyncStack, waitFor, type AsyncStack } from '@docrender/testing';

/** One span as an OTLP/HTTP JSON export carries it, with the service.name of its resource. */
type ReceivedSpan = {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
};

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpExport = {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }[] }[];
  }[];
};

const valueOf = (v: OtlpValue): unknown => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
const attributesOf = (list: OtlpAttribute[] = []): Record<string, unknown> => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** A tiny OTLP/HTTP receiver (the JSON protocol the exporter speaks) that keeps every span it is sent. */
async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const s of scope.spans ?? []) {
            spans.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', name: s.name, kind: s.kind, attributes: attributesOf(s.attributes) });
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** OTLP span kinds (SPAN_KIND_*). */
const Kind = { Internal: 1, Server: 2, Client: 3, Producer: 4, Consumer: 5 } as const;

const example = (file: string) => readFileSync(path.join(REPO_ROOT, 'examples/invoice', file), 'utf8');
const invoice = JSON.parse(example('data.json')) as Record<string, unknown>;

/**
 * Issue 22 item 5, the proof: with OTEL_EXPORTER_OTLP_ENDPOINT set, one async job is ONE trace across the four
 * processes — the gateway's request, job.run through the outbox and RabbitMQ to the job worker, each document's
 * render.document to the render service, and each callback's webhook.deliver (stored in the job worker's outbox) to
 * the dispatcher's POST — every span's parent found in the trace.
 */
describe('traces across the four services (OpenTelemetry, OTLP/HTTP)', () => {
  let stack: AsyncStack;
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    stack = await startAsyncStack('tracing', { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url }, {
      renderService: { template: { templateJson: example('template.json'), sampleData: JSON.stringify({ data: invoice, i18n: {} }), translations: null } },
    });
  }, 180_000);
  afterAll(async () => {
    await stack?.teardown();
    await otlp?.close();
  });

  it('an async job with a callback: spans of api-gateway, job-worker, render-service and webhook-dispatcher share one trace id with correct parent links', async () => {
    const jobId = await stack.enqueue(stack.prodKey, [invoice, { ...invoice, number: 'INV-TRACE-2' }], { hook: 'traced' });
    await stack.completionOf(jobId, 120_000);
    expect((await stack.finished(stack.prodKey, jobId)).state).toBe(JobState.Completed);

    // The enqueue's server span: its trace is the job's.
    const enqueue = await waitFor('the gateway span of the enqueue', () =>
      otlp.spans.find((s) => s.service === 'api-gateway' && s.kind === Kind.Server && s.name === 'POST /v1/render/:templateId/async'),
    );
    // Both renders and the three callbacks (two progress, one completion) delivered by the dispatcher, in the trace,
    // and the job worker's spans they hang from: each process exports its spans in its own batches, so the job
    // worker's (its job.run span ends with the job) may reach the receiver after the dispatcher's last POST.
    const inTrace = await waitFor('the renders and callback POSTs of the job, and the job worker spans they hang from', () => {
      const spans = otlp.spans.filter((s) => s.traceId === enqueue.traceId);
      const count = (service: string, name: string): number => spans.filter((s) => s.service === service && s.name === name).length;
      const posts = spans.filter((s) => s.service === 'webhook-dispatcher' && s.kind === Kind.Client).length;
      const complete =
        posts >= 3 &&
        count('render-service', 'render document') === 2 &&
        count('job-worker', 'job.run process') === 1 &&
        count('job-worker', 'render.document publish') === 2 &&
        count('job-worker', 'webhook.deliver publish') >= 3;
      return complete ? spans : undefined;
    }, 30_000);

    expect(new Set(inTrace.map((s) => s.service))).toEqual(new Set(['api-gateway', 'job-worker', 'render-service', 'webhook-dispatcher']));
    // Every span but the root has its parent in the trace: the links are unbroken across processes.
    const byId = new Map(inTrace.map((s) => [s.spanId, s]));
    const parentOf = (s: ReceivedSpan): ReceivedSpan | undefined => byId.get(s.parentSpanId);
    expect(inTrace.filter((s) => s.parentSpanId === '')).toEqual([enqueue]);
    expect(inTrace.filter((s) => s !== enqueue && parentOf(s) === undefined)).toEqual([]);

    const one = (service: string, name: string, kind: number): ReceivedSpan[] => inTrace.filter((s) => s.service === service && s.name === name && s.kind === kind);
    // gateway → job worker: job.run published in the request (or by the outbox relay with the stored context).
    const [runPublish] = one('api-gateway', 'job.run publish', Kind.Producer);
    expect(runPublish.attributes['docrender.job_id']).toBe(jobId);
    const [runProcess] = one('job-worker', 'job.run process', Kind.Consumer);
    expect(parentOf(runProcess)).toBe(runPublish);
    expect(runProcess.attributes['docrender.job_id']).toBe(jobId);
    // job worker → render service: one render.document per document, each rendered under its consumer span.
    const renders = one('render-service', 'render document', Kind.Internal);
    expect(renders.map((s) => s.attributes['docrender.request_id']).sort()).toEqual([`${jobId}:0`, `${jobId}:1`]);
    for (const render of renders) {
      const consumer = parentOf(render)!;
      expect([consumer.service, consumer.name, consumer.kind]).toEqual(['render-service', 'render.document process', Kind.Consumer]);
      const producer = parentOf(consumer)!;
      expect([producer.service, producer.name, producer.kind]).toEqual(['job-worker', 'render.document publish', Kind.Producer]);
      expect(consumer.attributes['docrender.document_index']).toBe(Number(String(render.attributes['docrender.request_id']).split(':')[1]));
    }
    // job worker → dispatcher: webhook.deliver from the callback outbox, the POST a child of its consumer span.
    const posts = inTrace.filter((s) => s.service === 'webhook-dispatcher' && s.kind === Kind.Client);
    for (const post of posts) {
      expect(post.name).toBe('POST');
      expect(post.attributes['http.response.status_code']).toBe(204);
      const consumer = parentOf(post)!;
      expect([consumer.service, consumer.name, consumer.attributes['docrender.job_id']]).toEqual(['webhook-dispatcher', 'webhook.deliver process', jobId]);
      const producer = parentOf(consumer)!;
      expect([producer.service, producer.name, producer.kind]).toEqual(['job-worker', 'webhook.deliver publish', Kind.Producer]);
    }
  }, 240_000);
});
