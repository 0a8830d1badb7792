import { DependencyOutageError, DomainError, ErrorCode } from '@docrender/contracts';
import { dependencyOutageOf, outageWaitMs } from './dependency-outage';
import { MessageBusUnavailableError, QueueFullError, RequestTimeoutError } from './message-bus';
import { MessageName } from '@docrender/contracts';

const withCode = (message: string, fields: Record<string, unknown>): Error => Object.assign(new Error(message), fields);

describe('dependencyOutageOf (issue 18: an outage is not the message\'s fault)', () => {
  it.each([
    ['an explicit DependencyOutageError', new DependencyOutageError('blob storage', 'S3 down'), 'blob storage'],
    ['RabbitMQ unavailable', new MessageBusUnavailableError('not connected to RabbitMQ'), 'message bus'],
    ['no reply from the render service', new RequestTimeoutError(MessageName.RenderDocument, 75_000), 'render service'],
    ['a refused TCP connection (pg, minio, fetch)', withCode('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', address: '127.0.0.1', port: 5432 }), '127.0.0.1:5432'],
    ['a reset socket', withCode('read ECONNRESET', { code: 'ECONNRESET' }), 'a network dependency'],
    ['DNS failing', withCode('getaddrinfo EAI_AGAIN minio', { code: 'EAI_AGAIN', hostname: 'minio' }), 'minio'],
    ['the pg driver losing its server', new Error('Connection terminated unexpectedly'), 'database'],
    ['the pg pool timing out on connect', new Error('timeout exceeded when trying to connect'), 'database'],
    ['PostgreSQL shutting down (57P01)', withCode('terminating connection due to administrator command', { code: '57P01', severity: 'FATAL' }), 'database'],
    ['PostgreSQL starting up (57P03)', withCode('the database system is starting up', { code: '57P03', severity: 'FATAL' }), 'database'],
    ['PostgreSQL out of connections (53300)', withCode('sorry, too many clients already', { code: '53300', severity: 'FATAL' }), 'database'],
    ['S3 answering 503 SlowDown', withCode('Please reduce your request rate.', { code: 'SlowDown' }), 'blob storage'],
    ['amqplib on a closed channel', new Error('Channel closed'), 'message bus'],
  ])('%s is an outage', (_what, error, dependency) => {
    expect(dependencyOutageOf(error)).toEqual({ dependency, reason: expect.any(String) });
  });

  it('finds the outage behind TypeORM\'s driverError, a cause chain and an AggregateError', () => {
    const refused = withCode('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', address: '127.0.0.1', port: 5432 });
    expect(dependencyOutageOf(Object.assign(new Error('QueryFailedError'), { driverError: new Error('Connection terminated unexpectedly') }))?.dependency).toBe('database');
    expect(dependencyOutageOf(new Error('storing the PDF failed', { cause: new Error('wrapped', { cause: refused }) }))?.dependency).toBe('127.0.0.1:5432');
    expect(dependencyOutageOf(new AggregateError([new Error('x'), refused]))?.dependency).toBe('127.0.0.1:5432');
  });

  it.each([
    ['a plain error of the handler', new Error('cannot read properties of undefined')],
    ['a domain rejection', new DomainError(ErrorCode.ValidationError, 'bad template')],
    ['a full queue (back-pressure, handled by the caller)', new QueueFullError(MessageName.RunJob, 10)],
    ['a SQL error of the statement (unique violation)', withCode('duplicate key value violates unique constraint', { code: '23505', severity: 'ERROR' })],
    ['a missing S3 object', withCode('The specified key does not exist.', { code: 'NoSuchKey' })],
    ['something that is not an error', 'boom'],
    ['a self-referencing cause', (() => { const e = new Error('loop') as Error & { cause?: unknown }; e.cause = e; return e; })()],
  ])('%s is the message\'s fault', (_what, error) => {
    expect(dependencyOutageOf(error)).toBeNull();
  });
});

describe('outageWaitMs', () => {
  it('doubles from AMQP_OUTAGE_WAIT_MS up to AMQP_OUTAGE_WAIT_MAX_MS: a few fixed values (one delay queue each)', () => {
    const settings = { outageWaitMs: 1_000, outageWaitMaxMs: 30_000 };
    expect([0, 1, 2, 3, 4, 5, 6, 50].map((waits) => outageWaitMs(waits, settings))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(outageWaitMs(3, { outageWaitMs: 500, outageWaitMaxMs: 100 })).toBe(500);
  });
});
