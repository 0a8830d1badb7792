import { MessageBusUnavailableError, type MessageBus } from '@docrender/messaging';
import type { BlobStore } from '@docrender/storage';
import { OutageDetector } from './outage';

/** Fakes of the three ports: each answers unless told it is down. */
function detector(down: { database?: boolean; bus?: boolean; blobs?: boolean } = {}): OutageDetector {
  const fail = (name: string) => Promise.reject(new Error(`${name} refused`));
  const database = { ping: () => (down.database ? fail('postgres') : Promise.resolve()) };
  const bus = { ping: () => (down.bus ? fail('amqp') : Promise.resolve()) } as unknown as MessageBus;
  const blobStore = { ping: () => (down.blobs ? fail('s3') : Promise.resolve()) } as unknown as BlobStore;
  return new OutageDetector({ database, bus, blobStore });
}

describe('a job interrupted by an outage waits; one failing on its own is not an outage (issue 18, job worker)', () => {
  it('an error of the job itself, with every dependency answering, is no outage', async () => {
    expect(await detector().describe(new Error('template broken'))).toBeNull();
  });

  it('names every unreachable dependency as the readiness probe does', async () => {
    expect(await detector({ database: true, blobs: true }).describe(new Error('ECONNREFUSED'))).toBe(
      'database unreachable: postgres refused; blob storage unreachable: s3 refused',
    );
  });

  it('the message bus reported unavailable is an outage without checking anything', async () => {
    expect(await detector().describe(new MessageBusUnavailableError('channel closed'))).toBe('message bus: channel closed');
  });
});
