import { DependencyOutageError } from '@docrender/contracts';
import { MessageBusUnavailableError, RequestTimeoutError } from './message-bus';

/** What a handler's failure says about a dependency: which one is unreachable, and why. */
export type DependencyOutage = { dependency: string; reason: string };

/** Socket and DNS failures (Node, undici): the peer is down, unreachable or cut off mid-conversation. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now: class 08 (connection exception), shutdown in progress,
 * cannot connect now (starting up, recovering), too many connections.
 */
const POSTGRES_UNAVAILABLE = /^(08...|57P01|57P02|57P03|53300)$/;

/** Messages of the pg driver and pool when the server went away or never answered. */
const POSTGRES_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /^Connection is not established/,
];

/** S3 error codes (the minio client's `code`) of a storage service that is down or overloaded, not of a bad request. */
const STORAGE_UNAVAILABLE = new Set(['ServiceUnavailable', 'SlowDown', 'InternalError', 'RequestTimeout', 'ServiceFailure']);

/** amqplib's errors for an operation on a channel or connection that is gone. */
const AMQP_CLOSED = /^(Channel|Connection) closed/;

/**
 * Whether `error` means a dependency is unreachable (an outage) rather than a fault of the message being handled,
 * and which one. Looks through `cause` chains, TypeORM's `driverError` and AggregateErrors. Recognised:
 * DependencyOutageError (thrown by code that knows), MessageBusUnavailableError (RabbitMQ), RequestTimeoutError
 * (no reply from the render service), socket and DNS errors, PostgreSQL connection errors and shutdown states, S3
 * 5xx codes, amqplib's closed channel. Everything else is the message's fault.
 */
export function dependencyOutageOf(error: unknown): DependencyOutage | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const candidate = queue.shift();
    if (candidate === null || typeof candidate !== 'object' || seen.has(candidate)) continue;
    seen.add(candidate);
    const outage = classify(candidate);
    if (outage) return outage;
    const nested = candidate as { cause?: unknown; driverError?: unknown; errors?: unknown };
    queue.push(nested.cause, nested.driverError);
    if (Array.isArray(nested.errors)) queue.push(...(nested.errors as unknown[]));
  }
  return null;
}

function classify(error: object): DependencyOutage | null {
  const message = error instanceof Error ? error.message : '';
  if (error instanceof DependencyOutageError) return { dependency: error.dependency, reason: message };
  if (error instanceof MessageBusUnavailableError) return { dependency: 'message bus', reason: message };
  if (error instanceof RequestTimeoutError) return { dependency: 'render service', reason: message };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return { dependency: peerOf(error), reason: message || code };
    if (POSTGRES_UNAVAILABLE.test(code) && 'severity' in error) return { dependency: 'database', reason: message };
    if (STORAGE_UNAVAILABLE.has(code)) return { dependency: 'blob storage', reason: message || code };
  }
  if (POSTGRES_MESSAGES.some((pattern) => pattern.test(message))) return { dependency: 'database', reason: message };
  if (AMQP_CLOSED.test(message)) return { dependency: 'message bus', reason: message };
  return null;
}

/** The address a socket error names, when it names one. */
function peerOf(error: object): string {
  const { address, port, hostname } = error as { address?: unknown; port?: unknown; hostname?: unknown };
  const host = typeof address === 'string' ? address : typeof hostname === 'string' ? hostname : null;
  if (host === null) return 'a network dependency';
  return typeof port === 'number' ? `${host}:${port}` : host;
}

/**
 * How long a message waits after its `waits`-th outage (0 on the first): AMQP_OUTAGE_WAIT_MS, doubling, up to
 * AMQP_OUTAGE_WAIT_MAX_MS. A handful of distinct values, since RabbitMQ keeps one delay queue per value.
 */
export function outageWaitMs(waits: number, settings: { outageWaitMs: number; outageWaitMaxMs: number }): number {
  const doubled = settings.outageWaitMs * 2 ** Math.min(Math.max(0, waits), 20);
  return Math.min(doubled, Math.max(settings.outageWaitMs, settings.outageWaitMaxMs));
}
