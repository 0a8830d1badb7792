import express from 'express';
import request from 'supertest';
import { JsonLogger } from '@docrender/observability';
import { requestContext } from './request-context.middleware';

function appWithLog(lines: string[]) {
  const logger = new JsonLogger('api-gateway', 'debug', {}, (l) => lines.push(l));
  const app = express();
  app.use(requestContext(logger));
  app.get('/v1/things/:id', (_req, res) => {
    logger.info('handling');
    res.status(204).end();
  });
  return app;
}

describe('request context (logs that say what happened)', () => {
  it('gives each request an id, echoes it, and puts it on every log line of the request', async () => {
    const lines: string[] = [];
    const res = await request(appWithLog(lines)).get('/v1/things/42');
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({ message: 'handling', requestId: id }),
      expect.objectContaining({ message: 'request served', requestId: id, method: 'GET', path: '/v1/things/42', status: 204 }),
    ]);
  });

  it('keeps a plain client request id and replaces a hostile one', async () => {
    const lines: string[] = [];
    const app = appWithLog(lines);
    expect((await request(app).get('/v1/things/1').set('X-Request-Id', 'client-abc.123')).headers['x-request-id']).toBe('client-abc.123');
    const replaced = (await request(app).get('/v1/things/1').set('X-Request-Id', 'a"b\\n{evil}')).headers['x-request-id'];
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });
});
