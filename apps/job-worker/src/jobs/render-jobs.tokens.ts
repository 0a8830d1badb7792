/** The outbox relay of the callbacks the jobs store (an OutboxRelay of @docrender/messaging). */
export const CALLBACK_RELAY = Symbol('CALLBACK_RELAY');

/** Set once the process is shutting down: a running job stops starting documents and returns to the queue. */
export class JobWorkerShutdown {
  stopping = false;
}
