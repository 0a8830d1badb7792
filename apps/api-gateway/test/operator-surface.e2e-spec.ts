import { ErrorCode } from '@docrender/contracts';
import { startAppProcess, TEST_API_KEY_PEPPER } from '@docrender/testing';
import { freePort, gatewayResources, gatewaysOnOwnResources, type GatewayProcess } from './gateway-process';

jest.setTimeout(180_000);

/** Issue 17 item 5: what an operator exposes: metrics off the public port, no start with the public secrets. */
describe('issue 17 item 5: the operator surface of the gateway (gateway process)', () => {
  const own = gatewaysOnOwnResources(() => gatewayResources('operator'));

  describe('metrics', () => {
    let gateway: GatewayProcess;
    let metricsPort: number;

    beforeAll(async () => {
      metricsPort = await freePort();
      gateway = await own.startGateway({ DB_POOL_SIZE: '2', GATEWAY_METRICS_PORT: String(metricsPort) });
    });

    it('/metrics is not served on the public API port: 404 EntityNotFound in the envelope, with or without a key', async () => {
      const res = await fetch(`${gateway.baseUrl}/metrics`);
      expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([404, ErrorCode.EntityNotFound]);
    });

    it('/metrics is served on GATEWAY_METRICS_PORT (Prometheus text format, the request histogram included)', async () => {
      await fetch(`${gateway.baseUrl}/v1/meta/version`);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toContain('docrender_http_request_seconds');
    });
  });

  describe('public development secrets', () => {
    const start = (env: Record<string, string>) =>
      startAppProcess('apps/api-gateway/src/main.js', { DATABASE_URL: own.db.url, BLOB_DIR: own.resources.blobDir, ALLOW_DEVELOPMENT_SECRETS: 'false', ...env });

    it.each([
      ['VIEW_URL_SECRET unset', { API_KEY_PEPPER: TEST_API_KEY_PEPPER }, 'VIEW_URL_SECRET'],
      ['API_KEY_PEPPER unset', { VIEW_URL_SECRET: 'an-operator-chosen-view-url-secret' }, 'API_KEY_PEPPER'],
    ])('%s: the gateway refuses to start, naming the setting and ALLOW_DEVELOPMENT_SECRETS', async (_what, env, variable) => {
      const gateway = start({ ...env, PORT: String(await freePort()) });
      expect(await gateway.exited).toBe(1);
      expect(gateway.output()).toContain(`api-gateway: configuration error: ${variable}: holds the public development value`);
      expect(gateway.output()).toContain('ALLOW_DEVELOPMENT_SECRETS=true');
    });

    it('ALLOW_DEVELOPMENT_SECRETS=true lets it start with them (local development, tests)', async () => {
      const port = await freePort();
      const gateway = start({ ALLOW_DEVELOPMENT_SECRETS: 'true', PORT: String(port) });
      try {
        await gateway.waitForReady(`http://127.0.0.1:${port}/v1/meta/status`, 60_000);
      } finally {
        await gateway.stop();
      }
    });
  });
});
