/** A verified callback body that is neither a progress body (spec 2.10) nor a completion body (spec 2.11). */
export class MalformedCallbackError extends Error {
  constructor(readonly problem: string) {
    super(`Malformed callback body: ${problem}`);
    this.name = 'MalformedCallbackError';
  }
}
