import { currentLogFields, LogFields } from './log-context';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

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

export type LogSink = (line: string) => void;

const stdoutSink: LogSink = (line) => process.stdout.write(line + '\n');

function describeError(err: unknown): LogFields {
  if (err instanceof Error) return { errorName: err.name, errorMessage: err.message, stack: err.stack };
  return { errorMessage: String(err) };
}

export class JsonLogger implements Logger {
  constructor(
    private readonly service: string,
    private readonly minLevel: LogLevel = 'info',
    private readonly fields: LogFields = {},
    private readonly sink: LogSink = stdoutSink,
  ) {}

  debug(message: string, fields?: LogFields): void {
    this.write('debug', message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.write('info', message, fields);
  }
  warn(message: string, fields?: LogFields): void {
    this.write('warn', message, fields);
  }
  error(message: string, fields?: ErrorLogFields): void {
    const { err, ...rest } = fields ?? {};
    this.write('error', message, err === undefined ? (rest as LogFields) : { ...(rest as LogFields), ...describeError(err) });
  }
  child(fields: LogFields): Logger {
    return new JsonLogger(this.service, this.minLevel, { ...this.fields, ...fields }, this.sink);
  }

  private write(level: LogLevel, message: string, fields?: LogFields): void {
    if (LEVEL_ORDER[level] < LEVEL_ORDER[this.minLevel]) return;
    const line = { time: new Date().toISOString(), level, service: this.service, message, ...this.fields, ...currentLogFields(), ...fields };
    this.sink(JSON.stringify(line));
  }
}

export function createLogger(service: string, level: LogLevel = (process.env.LOG_LEVEL as LogLevel) ?? 'info'): Logger {
  return new JsonLogger(service, LEVEL_ORDER[level] ? level : 'info');
}
