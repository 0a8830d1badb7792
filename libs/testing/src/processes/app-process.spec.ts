import { createServer } from 'node:net';
import { freePort } from './app-process';

describe('issue 37 item 2: test ports that a busy machine cannot take away before an app binds them', () => {
  it('hands out ports below the ephemeral range (where outgoing connections take theirs), never the same one twice in a row', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 50; i++) ports.push(await freePort());
    for (const port of ports) expect(port >= 20_000 && port < 32_768).toBe(true);
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('skips a port something listens on', async () => {
    const first = await freePort();
    // the next port of the block is taken: freePort goes past it
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(first + 1, resolve));
    try {
      const next = await freePort();
      expect(next).not.toBe(first + 1);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
