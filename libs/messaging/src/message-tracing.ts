import type { MessageName } from '@docrender/contracts';
import { inSpan, SpanKind, traceCarrier, type Attributes, type TraceCarrier } from '@docrender/observability';

/** A render of one job document: its request id is `<jobId>:<documentIndex>` (RenderDocumentCommand.requestId). */
const JOB_DOCUMENT_REQUEST = /^([0-9a-f-]{36}):(\d+)$/;

/** The span attributes of a message: the messaging ones, then the ids its payload carries (job, request, delivery, document). */
function messageAttributes(system: string, name: MessageName, messageId: string, payload: unknown): Attributes {
  const fields = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const attributes: Attributes = { 'messaging.system': system, 'messaging.destination.name': name, 'messaging.message.id': messageId };
  if (typeof fields.jobId === 'string') attributes['docrender.job_id'] = fields.jobId;
  if (typeof fields.deliveryId === 'string') attributes['docrender.delivery_id'] = fields.deliveryId;
  if (typeof fields.requestId === 'string') {
    attributes['docrender.request_id'] = fields.requestId;
    const jobDocument = JOB_DOCUMENT_REQUEST.exec(fields.requestId);
    if (jobDocument !== null) {
      attributes['docrender.job_id'] = jobDocument[1];
      attributes['docrender.document_index'] = Number(jobDocument[2]);
    }
  }
  return attributes;
}

/**
 * Sends one message inside a producer span (`<name> publish`, a child of the active span); `send` is given the W3C
 * trace headers to put on the message (null when tracing is off), so that its consumer continues the trace.
 */
export function publishInSpan<T>(system: string, name: MessageName, messageId: string, payload: unknown, send: (headers: TraceCarrier | null) => Promise<T>): Promise<T> {
  return inSpan(`${name} publish`, { kind: SpanKind.PRODUCER, attributes: () => messageAttributes(system, name, messageId, payload) }, () => send(traceCarrier()));
}

/** Handles one delivered message inside a consumer span (`<name> process`), a child of the context its headers carry. */
export function consumeInSpan<T>(system: string, name: MessageName, messageId: string, payload: unknown, headers: unknown, handle: () => Promise<T>): Promise<T> {
  return inSpan(`${name} process`, { kind: SpanKind.CONSUMER, attributes: () => messageAttributes(system, name, messageId, payload), carrier: headers }, handle);
}
