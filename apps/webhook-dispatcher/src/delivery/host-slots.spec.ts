import { callbackHostOf, callbackOriginOf, HostSlots } from './host-slots';

describe('HostSlots', () => {
  it('6.3: a host at its cap gets no further slot while other hosts still do', () => {
    const slots = new HostSlots(2);
    expect(slots.tryAcquire('slow.example:443')).toBe(true);
    expect(slots.tryAcquire('slow.example:443')).toBe(true);
    expect(slots.tryAcquire('slow.example:443')).toBe(false);
    expect(slots.tryAcquire('fast.example')).toBe(true);
    slots.release('slow.example:443');
    expect(slots.inFlightTo('slow.example:443')).toBe(1);
    expect(slots.tryAcquire('slow.example:443')).toBe(true);
  });

  it('releasing the last slot forgets the host', () => {
    const slots = new HostSlots(1);
    slots.tryAcquire('a');
    slots.release('a');
    expect(slots.inFlightTo('a')).toBe(0);
    expect(slots.tryAcquire('a')).toBe(true);
  });
});

describe('callback URL helpers', () => {
  it('keys hosts by host:port and never exposes path or query', () => {
    expect(callbackHostOf('https://Hooks.Example.com:8443/render?token=secret')).toBe('hooks.example.com:8443');
    expect(callbackHostOf('not a url')).toBeNull();
    expect(callbackOriginOf('https://hooks.example.com/cb/secret-token?x=1')).toBe('https://hooks.example.com');
  });
});
