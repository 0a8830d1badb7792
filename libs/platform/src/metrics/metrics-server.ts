import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsRegistry } from '@docrender/observability';

/**
 * A listener of its own for `GET /metrics` (Prometheus text format), anonymous, for an app whose main port is public
 * (the API gateway): the scrape goes to this port, which no ingress or public Service exposes. Anything else is 404.
 */
export async function startMetricsServer(port: number, host = '0.0.0.0'): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?', 1)[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: only GET /metrics is served here\n');
      return;
    }
    metricsRegistry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': metricsRegistry.contentType }).end(text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics could not be collected\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
