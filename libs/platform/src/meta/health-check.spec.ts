import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkHealth, HEALTH_CHECK_PATH, healthCheckPort } from './health-check';

/** A stand-in app answering its readiness probe with `status` and `body`. */
async function app(status: number, body: string): Promise<{ port: number; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, paths, server };
}

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

describe('container health check (issue 36 item 3: exec form, the port from the environment, no shell)', () => {
  it('is healthy when the readiness probe answers 2xx, and asks GET /v1/meta/status', async () => {
    const ready = await app(200, '{"status":"ok"}');
    try {
      await expect(checkHealth(ready.port, 4000)).resolves.toEqual({ healthy: true });
      expect(ready.paths).toEqual([HEALTH_CHECK_PATH]);
    } finally {
      await close(ready.server);
    }
  });

  it('is unhealthy on a 503, with the app\'s own reason', async () => {
    const notReady = await app(503, '{"reason":"chromium unreachable"}');
    try {
      const result = await checkHealth(notReady.port, 4000);
      expect(result).toEqual({ healthy: false, reason: expect.stringContaining('503') });
      expect(result).toEqual({ healthy: false, reason: expect.stringContaining('chromium unreachable') });
    } finally {
      await close(notReady.server);
    }
  });

  it('is unhealthy when nothing listens on the port', async () => {
    const gone = await app(200, '');
    await close(gone.server);
    await expect(checkHealth(gone.port, 4000)).resolves.toEqual({ healthy: false, reason: expect.stringContaining(`port ${gone.port}`) });
  });

  it('reads the port from the variable the image names as its argument', () => {
    expect(healthCheckPort(['RENDER_SERVICE_PORT'], { RENDER_SERVICE_PORT: '3001' })).toBe(3001);
    expect(() => healthCheckPort(['RENDER_SERVICE_PORT'], {})).toThrow('RENDER_SERVICE_PORT is not set');
    expect(() => healthCheckPort(['PORT'], { PORT: '3000 ' + 'x' })).toThrow('not the port of an app');
    expect(() => healthCheckPort([], {})).toThrow('usage');
    expect(() => healthCheckPort(['$PORT'], {})).toThrow('usage');
  });
});
