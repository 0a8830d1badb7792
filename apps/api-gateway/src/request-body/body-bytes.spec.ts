import { BodyBytes } from './body-bytes';
describe('BodyBytes: a body is held once (issue 31 item 3, docs/operations.md "Memory per request")', () => {
  const MIB = 1024 * 1024;

  it('200 MiB read in 256 KiB chunks (the inflater\'s) costs about 200 MiB of resident memory, not two copies; the body handed on is one shared copy, the reading buffer freed', () => {
    const size = 200 * MIB;
    // One chunk written again and again: what is measured is what BodyBytes holds, not chunks awaiting collection.
    // Upper bounds only: a garbage collection of earlier tests' memory during the reads can only lower the figures
    // (the refused-body test below shows the memory is really there, releasing 200 MiB at once).
    const chunk = Buffer.alloc(256 * 1024, 0x78);
    const before = process.memoryUsage.rss();
    const bytes = new BodyBytes(256 * MIB);
    for (let at = 0; at < size; at += chunk.length) bytes.append(chunk);
    const read = process.memoryUsage.rss() - before;
    console.log(`BodyBytes: ${size / MIB} MiB read, resident memory +${(read / MIB).toFixed(1)} MiB`);
    expect(read).toBeLessThan(1.1 * size + 16 * MIB);
    const body = bytes.body();
    const held = process.memoryUsage.rss() - before;
    console.log(`BodyBytes: ${size / MIB} MiB read and handed on, resident memory +${(held / MIB).toFixed(1)} MiB`);
    expect(body.length).toBe(size);
    expect(body.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(body[size - 1]).toBe(0x78);
    expect(held).toBeLessThan(1.1 * size + 16 * MIB);
  });

  it('a refused body gives its memory back at once, without waiting for a garbage collection', () => {
    const chunk = Buffer.alloc(256 * 1024, 0x78);
    const bytes = new BodyBytes(256 * MIB);
    for (let at = 0; at < 200 * MIB; at += chunk.length) bytes.append(chunk);
    const held = process.memoryUsage.rss();
    bytes.drop();
    const released = held - process.memoryUsage.rss();
    console.log(`BodyBytes: a refused 200 MiB body, resident memory -${(released / MIB).toFixed(1)} MiB at once`);
    expect(released).toBeGreaterThan(190 * MIB);
  });

  it('a small body is joined on the event loop, in ordinary memory', () => {
    const bytes = new BodyBytes(MIB);
    bytes.append(Buffer.from('{"documents":'));
    bytes.append(Buffer.from('[{}]}'));
    const body = bytes.body();
    expect(body.toString()).toBe('{"documents":[{}]}');
    expect(body.buffer).not.toBeInstanceOf(SharedArrayBuffer);
  });

  it('chunks held before the body passes the small-body size are moved into the shared memory, in order', () => {
    const bytes = new BodyBytes(4 * MIB);
    const parts = [Buffer.alloc(40 * 1024, 0x61), Buffer.alloc(40 * 1024, 0x62), Buffer.alloc(MIB, 0x63)];
    for (const part of parts) bytes.append(part);
    const body = bytes.body();
    expect(body.equals(Buffer.concat(parts))).toBe(true);
    expect(body.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});
