/**
 * A failure of the infrastructure around a render (the blob store would not give the data or take the PDF), not of
 * the document: the handler throws it so the message goes back to the queue and is tried again (bounded by
 * AMQP_DELIVERY_LIMIT), possibly on another instance.
 */
export class TransientFailureError extends Error {
  constructor(what: string, cause: unknown) {
    super(`${what}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'TransientFailureError';
  }
}

/**
 * The delivery went back to the queue (the message bus's DeliveryContext.abandoned): the handler stops before
 * printing or storing, and the message is not settled, so only its next delivery renders.
 */
export function throwIfAbandoned(abandoned: AbortSignal | undefined, messageName: string): void {
  if (abandoned?.aborted) throw new TransientFailureError(`${messageName} abandoned`, 'its message went back to the queue (RabbitMQ channel closed)');
}
