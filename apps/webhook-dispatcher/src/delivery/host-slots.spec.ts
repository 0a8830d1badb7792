import { callbackHostOf, callbackOriginOf, DeliverySlots, type SlotGrant } from './host-slots';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Slots with `options`, the grants in the order they come, and `request`: starts `count` acquisitions for `host`. */
function slotsOf(options: ConstructorParameters<typeof DeliverySlots>[0]) {
  const slots = new DeliverySlots(options);
  const grants: Array<[string, SlotGrant]> = [];
  const request = (host: string, count: number, signal?: AbortSignal): void => {
    for (let i = 0; i < count; i++) void slots.acquire(host, signal).then((grant) => grants.push([host, grant]));
  };
  return { slots, grants, request };
}

describe('DeliverySlots (spec 6.3: 16 callbacks in flight, one host included)', () => {
  // Callbacks a test leaves waiting are abandoned after it (their park timers would outlive the test run).
  let leftWaiting: AbortController;
  beforeEach(() => {
    leftWaiting = new AbortController();
  });
  afterEach(() => leftWaiting.abort());

  it('6.3: one host alone gets every slot, not only its per-host share', async () => {
    const { slots, grants, request } = slotsOf({ total: 16, perHost: 4, parkAfterMs: 60_000 });
    request('slow.example', 20, leftWaiting.signal);
    await tick();
    expect(grants).toHaveLength(16);
    expect(slots.inFlightTo('slow.example')).toBe(16);
    expect(slots.waitingCount).toBe(4);
    slots.release('slow.example');
    await tick();
    expect(grants).toHaveLength(17);
  });

  it('6.3: while other hosts wait, a freed slot goes to a host below its share before a host above it', async () => {
    const { slots, grants, request } = slotsOf({ total: 4, perHost: 2, parkAfterMs: 60_000 });
    request('a', 6, leftWaiting.signal);
    await tick();
    expect(grants).toHaveLength(4);
    request('b', 3, leftWaiting.signal);
    await tick();
    slots.release('a');
    slots.release('a');
    slots.release('a');
    await tick();
    // a holds 1 now: b (below its share of 2) gets two slots, then a (below its share again) before b's third.
    expect(grants.slice(4)).toEqual([
      ['b', 'go'],
      ['b', 'go'],
      ['a', 'go'],
    ]);
    expect(slots.inFlightTo('a')).toBe(2);
    expect(slots.inFlightTo('b')).toBe(2);
  });

  it('a callback that waited past parkAfterMs while its host holds its share is parked; one whose host is below it keeps waiting', async () => {
    jest.useFakeTimers();
    try {
      const { slots, grants, request } = slotsOf({ total: 2, perHost: 1, parkAfterMs: 1_000 });
      request('hog', 3);
      request('other', 1);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(grants).toEqual([
        ['hog', 'go'],
        ['hog', 'go'],
        ['hog', 'park'],
      ]);
      expect(slots.waitingCount).toBe(1);
      slots.release('hog');
      await jest.advanceTimersByTimeAsync(0);
      expect(grants.at(-1)).toEqual(['other', 'go']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a waiting callback whose delivery was abandoned (channel closed) leaves without a slot', async () => {
    const { slots, grants, request } = slotsOf({ total: 1, perHost: 1, parkAfterMs: 60_000 });
    const lost = new AbortController();
    request('h', 1);
    request('h', 1, lost.signal);
    await tick();
    lost.abort();
    await tick();
    expect(grants).toEqual([
      ['h', 'go'],
      ['h', 'abandoned'],
    ]);
    slots.release('h');
    expect(slots.inFlight).toBe(0);
  });
});

describe('callback URL helpers', () => {
  it('keys hosts by host:port and never exposes path or query', () => {
    expect(callbackHostOf('https://Hooks.Example.com:8443/render?token=secret')).toBe('hooks.example.com:8443');
    expect(callbackHostOf('not a url')).toBeNull();
    expect(callbackOriginOf('https://hooks.example.com/cb/secret-token?x=1')).toBe('https://hooks.example.com');
  });
});
