import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One Prometheus registry per process. Apps register their own metrics on it at module load with the helpers
 * below; names are prefixed `docrender_`. In one-process mode the four apps share this registry.
 */
export const metricsRegistry = new Registry();

/**
 * How often the event-loop lag is sampled (prom-client's default, 10 ms, wakes every process 100 times a second: 4.5 ms
 * of CPU per second per idle process measured on a loaded 2-core machine, ≈ 0.3 ms per document in each app of the
 * stack in issue 23's bench; 100 ms: 0.7 ms per second). A lag shorter than this is seen only when a sample falls in it.
 */
const EVENT_LOOP_LAG_RESOLUTION_MS = 100;
collectDefaultMetrics({ register: metricsRegistry, prefix: 'docrender_', eventLoopMonitoringPrecision: EVENT_LOOP_LAG_RESOLUTION_MS });

const existing = <T>(name: string): T | undefined => metricsRegistry.getSingleMetric(name) as T | undefined;

export function counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
  return existing<Counter<string>>(name) ?? new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

/** `collect`, when given, runs at every scrape to set the gauge's current values (e.g. reading queue depths). */
export function gauge(name: string, help: string, labelNames: string[] = [], collect?: (this: Gauge<string>) => Promise<void> | void): Gauge<string> {
  return existing<Gauge<string>>(name) ?? new Gauge({ name, help, labelNames, registers: [metricsRegistry], ...(collect ? { collect } : {}) });
}

export function histogram(name: string, help: string, buckets: number[], labelNames: string[] = []): Histogram<string> {
  return existing<Histogram<string>>(name) ?? new Histogram({ name, help, buckets, labelNames, registers: [metricsRegistry] });
}
