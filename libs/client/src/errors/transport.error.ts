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

/** The innermost reason of a fetch failure, e.g. `ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9` (undici nests it). */
function describeCause(cause: unknown): string {
  let current: unknown = cause;
  let text = String(cause);
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { message, code, errors } = current as { message?: unknown; code?: unknown; errors?: unknown };
    if (typeof message === 'string' && message !== '') text = typeof code === 'string' && !message.includes(code) ? `${code} ${message}` : message;
    else if (typeof code === 'string') text = code;
    const next = (current as { cause?: unknown }).cause ?? (Array.isArray(errors) ? errors[0] : undefined);
    if (next === undefined) break;
    current = next;
  }
  return text;
}
