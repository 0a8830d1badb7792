import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One Prometheus registry per process. Apps register their own metrics on it at module load with the helpers
 * below; names are prefixed `docrender_`. In one-process mode the four apps share this registry.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'docrender_' });

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
