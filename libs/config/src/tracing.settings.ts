import { ConfigOf, setting } from './setting';

/**
 * Traces (docs/operations.md, Traces): OpenTelemetry spans exported over OTLP/HTTP (JSON) when an endpoint is set,
 * off otherwise. The names are OpenTelemetry's own, so a collector's usual environment works unchanged. Read by every app.
 */
export const tracingSettings = {
  otlpEndpoint: setting.optionalUrl(
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'Base address of an OTLP/HTTP receiver (an OpenTelemetry Collector, Jaeger, Tempo…); traces are posted as OTLP JSON to <address>/v1/traces. Unset, with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT unset too: tracing is off.',
    ['http', 'https'],
  ),
  otlpTracesEndpoint: setting.optionalUrl(
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'Full address traces are posted to (used as given, e.g. http://collector:4318/v1/traces); wins over OTEL_EXPORTER_OTLP_ENDPOINT.',
    ['http', 'https'],
  ),
};

export type TracingSettings = ConfigOf<typeof tracingSettings>;

/** Where spans are exported, or undefined when tracing is off. */
export function otlpTracesUrl(settings: TracingSettings): string | undefined {
  if (settings.otlpTracesEndpoint !== undefined) return settings.otlpTracesEndpoint;
  if (settings.otlpEndpoint === undefined) return undefined;
  return `${settings.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`;
}
