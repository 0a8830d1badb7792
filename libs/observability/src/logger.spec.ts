import { withLogFields } from './log-context';
import { JsonLogger } from './logger';

describe('JsonLogger', () => {
  it('writes one JSON object per line with the service, level and the request context', async () => {
    const lines: string[] = [];
    const logger = new JsonLogger('api-gateway', 'info', {}, (l) => lines.push(l));
    await withLogFields({ requestId: 'r-1' }, async () => {
      await Promise.resolve();
      logger.info('render finished', { documentIndex: 2 });
    });
    logger.debug('not shown');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'info', service: 'api-gateway', message: 'render finished', requestId: 'r-1', documentIndex: 2 });
  });

  it('logs an error with its name, message and stack', () => {
    const lines: string[] = [];
    new JsonLogger('x', 'info', { app: 'x' }, (l) => lines.push(l)).child({ jobId: 'j' }).error('boom', { err: new TypeError('bad') });
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'error', app: 'x', jobId: 'j', errorName: 'TypeError', errorMessage: 'bad' });
  });
});
