import fs from 'node:fs';
import { withLogFields } from './log-context';
import { createLogger, JsonLogger } from './logger';

function capture(level: 'debug' | 'info' | 'warn' | 'error' = 'info', fields = {}) {
  const lines: string[] = [];
  return { lines, logger: new JsonLogger('api-gateway', level, fields, (l) => lines.push(l)) };
}

describe('JsonLogger (pino): the log lines docs/operations.md "Logs" describes', () => {
  it('writes one JSON object per line: the level by name, the ISO time, the service, the message, then the request context and the fields', async () => {
    const { lines, logger } = capture();
    await withLogFields({ requestId: 'r-1' }, async () => {
      await Promise.resolve();
      logger.info('render finished', { documentIndex: 2 });
    });
    logger.debug('not shown');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'info', service: 'api-gateway', message: 'render finished', requestId: 'r-1', documentIndex: 2 });
    expect(new Date(line.time as string).toISOString()).toBe(line.time);
    expect(Object.keys(line)).toEqual(['level', 'time', 'service', 'message', 'requestId', 'documentIndex']);
  });

  it('logs an error with its name, message and stack', () => {
    const { lines, logger } = capture('info', { app: 'x' });
    logger.child({ jobId: 'j' }).error('boom', { err: new TypeError('bad') });
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'error', app: 'x', jobId: 'j', errorName: 'TypeError', errorMessage: 'bad', stack: expect.stringContaining('TypeError: bad') });
  });

  it('gives the call its fields over the job context over the child fields, each name once, and leaves out undefined ones', () => {
    const { lines, logger } = capture('debug', { context: 'nest', component: 'relay' });
    withLogFields({ jobId: 'job-1', component: 'from-context' }, () => logger.child({ deliveryId: 'd-1' }).warn('retrying', { context: undefined, jobId: 'job-1:0' }));
    expect(lines[0].match(/"jobId"/g)).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual({
      time: expect.any(String),
      level: 'warn',
      service: 'api-gateway',
      message: 'retrying',
      component: 'from-context',
      deliveryId: 'd-1',
      jobId: 'job-1:0',
    });
  });

  it('writes a message as given (no printf-style formatting)', () => {
    const { lines, logger } = capture();
    logger.info('100% done %s %d');
    expect(JSON.parse(lines[0])).toMatchObject({ message: '100% done %s %d' });
  });

  it.each([
    ['debug', ['debug', 'info', 'warn', 'error']],
    ['info', ['info', 'warn', 'error']],
    ['warn', ['warn', 'error']],
    ['error', ['error']],
  ] as const)('at level %s writes %j', (level, written) => {
    const { lines, logger } = capture(level);
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(lines.map((l) => (JSON.parse(l) as { level: string }).level)).toEqual(written);
  });
});

describe('createLogger: LOG_LEVEL and stdout (settings table: LOG_LEVEL)', () => {
  const savedLevel = process.env.LOG_LEVEL;
  let stdoutLines: string[];
  let writeSync: jest.SpyInstance;

  beforeEach(() => {
    stdoutLines = [];
    const realWriteSync = fs.writeSync.bind(fs) as (...args: unknown[]) => number;
    writeSync = jest.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
      if (fd !== 1) return realWriteSync(fd, data, ...rest);
      const text = String(data);
      stdoutLines.push(...text.split('\n').filter(Boolean));
      return Buffer.byteLength(text);
    }) as typeof fs.writeSync);
  });
  afterEach(() => {
    writeSync.mockRestore();
    if (savedLevel === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = savedLevel;
  });

  it('writes each line to stdout before the call returns, at the LOG_LEVEL threshold', () => {
    process.env.LOG_LEVEL = 'warn';
    const logger = createLogger('job-worker');
    logger.info('below the threshold');
    logger.warn('job retried', { jobId: 'j-7' });
    expect(stdoutLines.map((l) => JSON.parse(l) as unknown)).toEqual([expect.objectContaining({ level: 'warn', service: 'job-worker', message: 'job retried', jobId: 'j-7' })]);
  });

  it('falls back to info when LOG_LEVEL is unset or not a level', () => {
    for (const value of [undefined, 'verbose']) {
      if (value === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = value;
      const logger = createLogger('render-service');
      logger.debug('hidden');
      logger.info(`shown with LOG_LEVEL=${value}`);
    }
    expect(stdoutLines.map((l) => (JSON.parse(l) as { message: string }).message)).toEqual(['shown with LOG_LEVEL=undefined', 'shown with LOG_LEVEL=verbose']);
  });
});
