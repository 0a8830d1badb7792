import { threadId } from 'node:worker_threads';
import { serveWorkerRequests } from '../worker-requests';

/**
 * The worker of the pool's unit tests: `echo` answers at once, `spin` holds its thread until terminated, `grow` takes
 * memory until its heap limit ends it, `keep` keeps about `mb` MB of strings and answers which thread it runs on,
 * `throw` fails, `thread` answers which thread it runs on.
 */
export type TestRequest =
  | { kind: 'echo'; value: string }
  | { kind: 'spin' }
  | { kind: 'grow' }
  | { kind: 'keep'; mb: number }
  | { kind: 'throw'; message: string }
  | { kind: 'thread' };

const held: string[][] = [];

serveWorkerRequests<TestRequest, string | number>((request) => {
  switch (request.kind) {
    case 'echo':
      return request.value;
    case 'spin':
      for (;;) Math.sqrt(Math.random());
    case 'grow':
      for (;;) held.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${Math.random()}`));
    case 'keep':
      // about 1 MB per 10,000 strings of ~40 characters with their array slots
      for (let i = 0; i < request.mb; i++) held.push(Array.from({ length: 10_000 }, (_, j) => `${i}-${j}-${Math.random()}`));
      return threadId;
    case 'throw':
      throw new Error(request.message);
    case 'thread':
      return threadId;
  }
});
