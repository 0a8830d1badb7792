import { setting } from './setting';

export const gatewaySettings = {
  port: setting.int('PORT', 'HTTP port of the API gateway (and of the one-process mode).', 3000, { min: 1, max: 65535 }),
  metricsPort: setting.int(
    'GATEWAY_METRICS_PORT',
    "Port of the API gateway's Prometheus metrics (`GET /metrics`), its own listener so they are never served on the public API port. 0: the gateway serves no metrics.",
    0,
    { min: 0, max: 65535 },
  ),
};
