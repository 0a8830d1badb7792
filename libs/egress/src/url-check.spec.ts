import dnsPromises from 'node:dns/promises';
import { AddressClass } from './address-class';
import { EgressFailedError, EgressFailure, EgressRefusal, EgressRefusedError } from './egress.error';
import { checkUrl, checkUrlLiteral, EgressPolicy } from './url-check';

const strict: EgressPolicy = { allowHttp: true, allowPrivate: false };

async function refusal(url: string, policy: EgressPolicy = strict): Promise<EgressRefusedError> {
  const outcome = await checkUrl(url, policy).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (outcome instanceof EgressRefusedError) return outcome;
  throw new Error(`expected a refusal of ${url}, got ${String(outcome)}`);
}

/** Makes dns.lookup answer a fixed list for one name (unit tests only: no resolver involved). */
function resolveTo(name: string, addresses: string[]): jest.SpyInstance {
  const fake = async (host: string) => {
    if (host !== name) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return jest.spyOn(dnsPromises, 'lookup').mockImplementation(fake as unknown as typeof dnsPromises.lookup);
}

describe('checkUrl', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each<[string, AddressClass]>([
    ['http://127.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'], // decimal
    ['http://0177.0.0.1/', 'loopback'], // octal
    ['http://0x7f.1/', 'loopback'], // hex, short form
    ['http://0x7f000001/', 'loopback'], // one hex number
    ['http://017700000001/', 'loopback'], // one octal number
    ['http://127.1/', 'loopback'], // short form
    ['http://127.0.0.1./', 'loopback'], // trailing dot
    ['http://１２７.０.０.１/', 'loopback'], // full-width digits (IDNA mapping)
    ['http://[::1]/', 'loopback'],
    ['http://[0:0:0:0:0:0:0:1]:8080/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[::127.0.0.1]/', 'loopback'],
    ['http://[64:ff9b::7f00:1]/', 'loopback'],
    ['http://[2002:7f00:1::1]/', 'loopback'],
    ['http://user:pass@127.0.0.1/', 'loopback'],
    ['http://example.com@127.0.0.1/', 'loopback'], // userinfo trick
    ['http://0/', 'unspecified'],
    ['http://0.0.0.0:3000/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://10.1.2.3/', 'private'],
    ['http://012.1.2.3/', 'private'], // octal 10
    ['http://172.16.0.1/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://3232235777/', 'private'], // decimal 192.168.1.1
    ['http://0xc0.0xa8.1.1/', 'private'],
    ['http://100.64.0.1/', 'private'], // CGNAT
    ['http://[fc00::1]/', 'private'],
    ['http://[fd12::1]/', 'private'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://169.254.1.1/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://2852039166/', 'metadata'], // decimal 169.254.169.254
    ['http://0xa9.0xfe.0xa9.0xfe/', 'metadata'],
    ['http://0251.0376.0251.0376/', 'metadata'],
    ['http://[::ffff:a9fe:a9fe]/', 'metadata'],
    ['http://[fd00:ec2::254]/', 'metadata'],
    ['http://100.100.100.200/', 'metadata'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://255.255.255.255/', 'reserved'],
    ['http://192.0.2.1/', 'reserved'],
    ['http://[2001:db8::1]/', 'reserved'],
    ['https://127.0.0.1:8443/', 'loopback'],
  ])('refuses %s (%s) unless allowPrivate', async (url, cls) => {
    const error = await refusal(url);
    expect(error.reason).toBe(EgressRefusal.AddressNotAllowed);
    expect(error.address?.class).toBe(cls);
    expect(error.message).toContain(cls);
  });

  it('refuses localhost names as loopback before any lookup (RFC 6761), whatever a resolver would say', async () => {
    const spy = resolveTo('localhost', ['93.184.215.14']);
    for (const url of ['http://localhost:3000/', 'http://LOCALHOST./', 'https://api.localhost/hook']) {
      const error = await refusal(url);
      expect(error.reason).toBe(EgressRefusal.AddressNotAllowed);
      expect(error.address?.class).toBe('loopback');
    }
    expect(spy).not.toHaveBeenCalled();
  });

  it('refuses credentials in the URL, after the scheme and address checks', async () => {
    resolveTo('public.example', ['93.184.215.14']);
    for (const url of ['https://user:secret@public.example/hook', 'https://user@public.example/', 'https://:secret@public.example/']) {
      const error = await refusal(url);
      expect(error.reason).toBe(EgressRefusal.CredentialsInUrl);
      expect(error.message).not.toContain('secret');
    }
  });

  it('refuses a host name when ANY of its addresses is not public', async () => {
    resolveTo('mixed.example', ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '10.0.0.7']);
    const error = await refusal('https://mixed.example/');
    expect(error.address).toEqual({ ip: '10.0.0.7', class: 'private' });
  });

  it('accepts a host name whose every address is public, returning them all', async () => {
    resolveTo('public.example', ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    const checked = await checkUrl('https://public.example/hook?token=abc', { allowHttp: false, allowPrivate: false });
    expect(checked.addresses).toEqual(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    expect(checked.url.href).toBe('https://public.example/hook?token=abc');
  });

  it('accepts a public IP literal without any DNS lookup', async () => {
    const spy = resolveTo('unused.example', []);
    expect((await checkUrl('https://8.8.8.8/', strict)).addresses).toEqual(['8.8.8.8']);
    expect((await checkUrl('https://[2606:4700:4700::1111]/', strict)).addresses).toEqual(['2606:4700:4700::1111']);
    expect(spy).not.toHaveBeenCalled();
  });

  it('allowPrivate admits loopback and private notations', async () => {
    const open: EgressPolicy = { allowHttp: true, allowPrivate: true };
    expect((await checkUrl('http://0x7f.1:8080/', open)).addresses).toEqual(['127.0.0.1']);
    expect((await checkUrl('http://[::ffff:10.0.0.1]/', open)).addresses).toEqual(['::ffff:a00:1']);
  });

  it('allowPrivate never admits a cloud metadata address', async () => {
    const error = await refusal('http://169.254.169.254/latest/meta-data/', { allowHttp: true, allowPrivate: true });
    expect(error.address?.class).toBe('metadata');
  });

  it('a name that does not resolve is a DnsLookupFailed failure, not a refusal', async () => {
    resolveTo('known.example', ['93.184.215.14']);
    const error: unknown = await checkUrl('https://unknown.example/', strict).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressFailedError);
    expect((error as EgressFailedError).reason).toBe(EgressFailure.DnsLookupFailed);
  });

  it('http is refused unless allowHttp; https is always allowed', async () => {
    resolveTo('public.example', ['93.184.215.14']);
    const error = await refusal('http://public.example/', { allowHttp: false, allowPrivate: false });
    expect(error.reason).toBe(EgressRefusal.SchemeNotAllowed);
    await expect(checkUrl('https://public.example/', { allowHttp: false, allowPrivate: false })).resolves.toBeDefined();
    await expect(checkUrl('http://public.example/', { allowHttp: true, allowPrivate: false })).resolves.toBeDefined();
  });

  it.each(['ftp://example.com/x', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO', 'data:text/plain,hi', 'javascript:alert(1)', 'ws://example.com/'])(
    'refuses the scheme of %s',
    async (url) => {
      expect((await refusal(url, { allowHttp: true, allowPrivate: true })).reason).toBe(EgressRefusal.SchemeNotAllowed);
    },
  );

  it.each(['not a url', '/relative/path', 'http://', 'http://[::1/', 'http://exa mple.com/'])('refuses %p as an invalid URL', async (url) => {
    expect((await refusal(url)).reason).toBe(EgressRefusal.InvalidUrl);
  });

  it('names the destination by origin only: no credentials, path or query token in the error', async () => {
    const error = await refusal('http://user:secret@127.0.0.1:9000/hooks/tok_123?token=abc');
    expect(error.target).toBe('http://127.0.0.1:9000');
    expect(error.message).not.toMatch(/secret|tok_123|token=abc/);
  });
});

describe('checkUrlLiteral (the rules that need no DNS, shared by enqueue and delivery)', () => {
  afterEach(() => jest.restoreAllMocks());
  const strictHttps: EgressPolicy = { allowHttp: false, allowPrivate: false };

  it('accepts a host name without resolving it and returns it to be resolved later', () => {
    const spy = resolveTo('unused.example', []);
    expect(checkUrlLiteral('https://hooks.example.com/render?token=abc', strictHttps)).toMatchObject({ host: 'hooks.example.com', address: null });
    expect(spy).not.toHaveBeenCalled();
  });

  it('returns an allowed address literal, canonical', () => {
    expect(checkUrlLiteral('https://[2606:4700:4700:0::1111]/', strictHttps).address).toBe('2606:4700:4700::1111');
    expect(checkUrlLiteral('http://0x7f.1/', { allowHttp: true, allowPrivate: true }).address).toBe('127.0.0.1');
  });

  it.each<[string, EgressRefusal, string | null]>([
    ['http://hooks.example.com/', EgressRefusal.SchemeNotAllowed, null],
    ['ftp://hooks.example.com/', EgressRefusal.SchemeNotAllowed, null],
    ['https://127.0.0.1/', EgressRefusal.AddressNotAllowed, 'loopback'],
    ['https://localhost/', EgressRefusal.AddressNotAllowed, 'loopback'],
    ['https://[::1]/', EgressRefusal.AddressNotAllowed, 'loopback'],
    ['https://[::ffff:127.0.0.1]/', EgressRefusal.AddressNotAllowed, 'loopback'],
    ['https://2130706433/', EgressRefusal.AddressNotAllowed, 'loopback'],
    ['https://0.0.0.0/', EgressRefusal.AddressNotAllowed, 'unspecified'],
    ['https://[::]/', EgressRefusal.AddressNotAllowed, 'unspecified'],
    ['https://10.0.0.1/', EgressRefusal.AddressNotAllowed, 'private'],
    ['https://169.254.1.1/', EgressRefusal.AddressNotAllowed, 'link-local'],
    ['https://169.254.169.254/', EgressRefusal.AddressNotAllowed, 'metadata'],
    ['https://[::ffff:a9fe:a9fe]/', EgressRefusal.AddressNotAllowed, 'metadata'],
    ['https://user:pw@hooks.example.com/', EgressRefusal.CredentialsInUrl, null],
    ['not a url', EgressRefusal.InvalidUrl, null],
  ])('refuses %s (%s %s) without a lookup', (url, reason, cls) => {
    const spy = resolveTo('unused.example', []);
    const error: unknown = (() => {
      try {
        checkUrlLiteral(url, strictHttps);
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EgressRefusedError);
    expect((error as EgressRefusedError).reason).toBe(reason);
    expect((error as EgressRefusedError).address?.class ?? null).toBe(cls);
    expect(spy).not.toHaveBeenCalled();
  });

  it('allowPrivate admits localhost, loopback and private literals; never metadata', () => {
    const open: EgressPolicy = { allowHttp: true, allowPrivate: true };
    expect(checkUrlLiteral('http://localhost:3000/hook', open).address).toBeNull();
    expect(checkUrlLiteral('http://127.0.0.1:3000/hook', open).address).toBe('127.0.0.1');
    expect(() => checkUrlLiteral('http://169.254.169.254/', open)).toThrow(/metadata/);
  });
});
