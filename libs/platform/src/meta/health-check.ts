import { request } from 'node:http';

/** What a container health check asks: the readiness probe of the app in the container (spec 4.17). */
export const HEALTH_CHECK_PATH = '/v1/meta/status';

export type HealthCheckResult = { healthy: true } | { healthy: false; reason: string };

/**
 * Asks the app on 127.0.0.1:`port` for its readiness (GET /v1/meta/status): healthy on a 2xx answer within
 * `timeoutMs`. The reason of an unhealthy result names what was seen (the status and the app's own 503 reason, or the
 * connection error), so `docker inspect` / `podman healthcheck run` show why.
 */
export function checkHealth(port: number, timeoutMs: number): Promise<HealthCheckResult> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: HEALTH_CHECK_PATH, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (body.length < 1000) body += chunk;
      });
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve(status >= 200 && status < 300 ? { healthy: true } : { healthy: false, reason: `${HEALTH_CHECK_PATH} answered ${status}: ${body.trim()}` });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => resolve({ healthy: false, reason: `${HEALTH_CHECK_PATH} on port ${port}: ${error.message}` }));
    req.end();
  });
}

/**
 * The port a health check asks, from the environment variable the image names as its one argument (PORT,
 * RENDER_SERVICE_PORT, …: the same variable the app listens on). An argument, not a shell expansion: the check runs
 * in exec form, with no shell and nothing to split.
 */
export function healthCheckPort(argv: readonly string[], env: NodeJS.ProcessEnv): number {
  const variable = argv[0];
  if (variable === undefined || !/^[A-Z_][A-Z0-9_]*$/.test(variable)) {
    throw new Error(`usage: health-check.main.js <PORT_VARIABLE> (got ${variable === undefined ? 'no argument' : JSON.stringify(variable)})`);
  }
  const raw = env[variable];
  const port = Number(raw);
  if (raw === undefined || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${variable} is ${raw === undefined ? 'not set' : JSON.stringify(raw)}: not the port of an app`);
  }
  return port;
}
