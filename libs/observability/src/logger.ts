import pino, { type DestinationStream, type Logger as Pino } from 'pino';
import { currentLogFields, LogFields } from './log-context';
import { currentTraceIds } from './tracing';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** The logger every app and lib takes: one JSON object per line on stdout. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: ErrorLogFields): void;
  child(fields: LogFields): Logger;
}

/** Log fields plus the error being reported, if any (its name, message and stack are logged). */
export type ErrorLogFields = { err?: unknown; [field: string]: unknown };

/** Receives each log line, without its newline (tests read them; by default lines go to stdout). */
export type LogSink = (line: string) => void;

let stdoutDestination: DestinationStream | undefined;

/** One synchronous stdout destination per process: lines keep their order with everything else written to stdout. */
function stdout(): DestinationStream {
  stdoutDestination ??= pino.destination({ dest: 1, sync: true });
  return stdoutDestination;
}

function describeError(err: unknown): LogFields {
  if (err instanceof Error) return { errorName: err.name, errorMessage: err.message, stack: err.stack };
  return { errorMessage: String(err) };
}

/**
 * The Logger port written with pino. Lines keep the shape operators rely on (docs/operations.md, Logs): `level` as a
 * name, `time` in ISO 8601, `service`, `message`, then the child's fields, the request or job context
 * (`withLogFields`), the active span's `trace_id` and `span_id` when tracing is on, and the call's fields, later ones winning on the same name. The fields are merged here, not with
 * pino's child bindings, so that a name appears once per line; the message travels among them (pino writes it as
 * given, never printf-formatted).
 */
class PinoLogger implements Logger {
  constructor(
    private readonly pino: Pino<never, false>,
    private readonly fields: LogFields,
  ) {}

  debug(message: string, fields?: LogFields): void {
    if (this.pino.isLevelEnabled('debug')) this.pino.debug(this.line(message, fields));
  }
  info(message: string, fields?: LogFields): void {
    if (this.pino.isLevelEnabled('info')) this.pino.info(this.line(message, fields));
  }
  warn(message: string, fields?: LogFields): void {
    if (this.pino.isLevelEnabled('warn')) this.pino.warn(this.line(message, fields));
  }
  error(message: string, fields?: ErrorLogFields): void {
    if (!this.pino.isLevelEnabled('error')) return;
    const { err, ...rest } = fields ?? {};
    this.pino.error(this.line(message, err === undefined ? (rest as LogFields) : { ...(rest as LogFields), ...describeError(err) }));
  }
  child(fields: LogFields): Logger {
    return new PinoLogger(this.pino, { ...this.fields, ...fields });
  }

  /** The line's own fields: the message first, so that lines read `level`, `time`, `service`, `message`, then the rest. */
  private line(message: string, fields?: LogFields): LogFields {
    return { message, ...this.fields, ...currentLogFields(), ...currentTraceIds(), ...fields };
  }
}

/** A JSON-lines logger for `service` at `minLevel` and above, writing to stdout or to `sink`. */
export class JsonLogger extends PinoLogger {
  constructor(service: string, minLevel: LogLevel = 'info', fields: LogFields = {}, sink?: LogSink) {
    const destination: DestinationStream = sink === undefined ? stdout() : { write: (line) => sink(line.replace(/\n$/, '')) };
    super(
      pino(
        {
          level: minLevel,
          base: { service },
          messageKey: 'message',
          timestamp: pino.stdTimeFunctions.isoTime,
          formatters: { level: (label) => ({ level: label }) },
        },
        destination,
      ),
      fields,
    );
  }
}

export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return new JsonLogger(service, LOG_LEVELS.find((known) => known === level) ?? 'info');
}
