import { AsyncLocalStorage } from 'node:async_hooks';

/** Fields every log line written inside a request or job carries (requestId, jobId, organisationId…). */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

const storage = new AsyncLocalStorage<LogFields>();

/** Runs `fn` with extra log fields for everything it logs, synchronously or later in its async chain. */
export function withLogFields<T>(fields: LogFields, fn: () => T): T {
  return storage.run({ ...(storage.getStore() ?? {}), ...fields }, fn);
}

export function currentLogFields(): LogFields {
  return storage.getStore() ?? {};
}
