/** A row the operation needs does not exist (or belongs to another organisation). */
export class RecordNotFoundError extends Error {
  constructor(readonly kind: string, readonly id: string) {
    super(`${kind} ${id} not found`);
    this.name = 'RecordNotFoundError';
  }
}

/** The operation contradicts stored state (e.g. a key already belongs to another organisation). */
export class RecordConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordConflictError';
  }
}
