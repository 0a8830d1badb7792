/**
 * A dependency the code needs is unreachable (PostgreSQL, the blob store, RabbitMQ, the render service): the work
 * itself is fine and succeeds once the dependency is back. Throw it (or let a connection error through: the message
 * bus recognises the usual ones, see `dependencyOutageOf` in @docrender/messaging) from a message handler to have the
 * message wait durably with backoff instead of spending its delivery limit. Anything else a handler throws counts as
 * a fault of the message and, repeated, dead-letters it.
 */
export class DependencyOutageError extends Error {
  constructor(
    /** What is unreachable, for logs and status probes: e.g. `database`, `blob storage`, `render service`. */
    readonly dependency: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DependencyOutageError';
  }
}

/**
 * A dependency went away after a write was sent to it and before it answered: the write may or may not have taken
 * effect (e.g. a document's payment and row, committed or not). Code that answers a client must not report it as
 * not done (a retry could pay twice) nor as done for sure.
 */
export class OutcomeUnknownError extends DependencyOutageError {
  constructor(dependency: string, message: string, options?: { cause?: unknown }) {
    super(dependency, message, options);
    this.name = 'OutcomeUnknownError';
  }
}
