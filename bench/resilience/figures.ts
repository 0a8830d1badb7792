/** What each resilience scenario reports (issue 18, "npm run resilience"). null: not measured by that scenario. */
export type ScenarioFigures = {
  /** Documents (or callbacks) accepted and never delivered: no PDF and no issue, or no callback and no record. */
  lost: number;
  /** Documents stored, charged or called back more than once. */
  duplicated: number;
  /** Seconds from the end of the fault until the work accepted during it was done. */
  secondsToRecover: number | null;
  /** The most requests in flight at once (e.g. callbacks to one host), when the scenario is about that. */
  maxInFlight: number | null;
  /** 95th percentile of read latency (ms) during the fault, when the scenario reads during it. */
  readP95Ms: number | null;
  /** Anything else worth printing, as `name: value` pairs. */
  notes: Record<string, string | number>;
};

/** One scenario: a fault applied to the four apps as processes on real PostgreSQL, RabbitMQ and S3. */
export type ResilienceScenario = {
  /** Short name, used to pick scenarios on the command line. */
  name: string;
  /** One line: the fault and the load. */
  description: string;
  run(): Promise<ScenarioFigures>;
};

/** The 95th percentile (nearest rank) of `values`; null when empty. */
export function p95(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

/** An environment variable as a whole number, or `fallback`. */
export function sizeFrom(variable: string, fallback: number): number {
  const value = Number(process.env[variable]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `read` every `everyMs` until `stop()` resolves; returns the latency (ms) of each read and its status. */
export async function readWhile(read: () => Promise<number>, stop: Promise<unknown>, everyMs: number): Promise<{ latencies: number[]; statuses: number[] }> {
  const latencies: number[] = [];
  const statuses: number[] = [];
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const inFlight: Promise<void>[] = [];
  while (!stopped) {
    const started = Date.now();
    inFlight.push(
      read().then(
        (status) => {
          latencies.push(Date.now() - started);
          statuses.push(status);
        },
        () => {
          latencies.push(Date.now() - started);
          statuses.push(0);
        },
      ),
    );
    await sleep(everyMs);
  }
  await Promise.all(inFlight);
  return { latencies, statuses };
}
