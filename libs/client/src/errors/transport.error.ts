import { DocrenderError } from './docrender.error';

/** No answer within the request's time limit (`timeoutMs`); the service may still have processed a write. */
export class TimeoutError extends DocrenderError {
  constructor(
    readonly request: string,
    readonly timeoutMs: number,
  ) {
    super(`no complete answer within ${timeoutMs} ms (${request})`);
  }
}

/** The request did not reach the service or the connection broke before the answer was complete (refused, reset, DNS). */
export class ConnectionError extends DocrenderError {
  constructor(
    readonly request: string,
    cause: unknown,
  ) {
    super(`connection failed (${request}): ${describeCause(cause)}`, { cause });
  }
}

/** A success status (2xx) whose body is not what the endpoint answers: not JSON, not the expected shape, not a PDF. */
export class ResponseDecodeError extends DocrenderError {
  constructor(
    readonly request: string,
    readonly status: number,
    readonly contentType: string | null,
    readonly problem: string,
    cause?: unknown,
  ) {
    super(`undecodable ${status} answer (${request}): ${problem}`, { cause });
  }
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = (cause as Error & { cause?: unknown }).cause;
  if (inner instanceof Error) {
    const code = (inner as Error & { code?: string }).code;
    return code ? `${code} ${inner.message}` : inner.message;
  }
  return cause.message;
}
