import { ErrorCode } from '@docrender/contracts';
import type { EgressPolicy } from '@docrender/egress';
import { domainErrorOf } from '@docrender/testing';
import { checkCallbackUrl } from './callback-url';

const strict: EgressPolicy = { allowHttp: false, allowPrivate: false };
const development: EgressPolicy = { allowHttp: true, allowPrivate: true };

const refusal = (url: string, policy: EgressPolicy = strict) => domainErrorOf(() => checkCallbackUrl(url, policy));

describe('checkCallbackUrl (spec 4.5 / part 6: a callback URL the service would never call is refused at enqueue)', () => {
  it('accepts a public https URL with a host name (resolved and checked at each delivery, not here)', () => {
    expect(() => checkCallbackUrl('https://hooks.example.com/render?token=abc', strict)).not.toThrow();
    expect(() => checkCallbackUrl('https://93.184.215.14:8443/hook', strict)).not.toThrow();
  });

  it('http is a BindingError naming callbackUrl and EGRESS_ALLOW_HTTP', () => {
    const error = refusal('http://hooks.example.com/render');
    expect(error.code).toBe(ErrorCode.BindingError);
    expect(error.message).toMatch(/^callbackUrl must be an https URL .*EGRESS_ALLOW_HTTP=true/);
  });

  it.each([
    ['https://127.0.0.1/hook', 'loopback', '127.0.0.1'],
    ['https://localhost:3000/hook', 'loopback', 'localhost'],
    ['https://[::1]/hook', 'loopback', '::1'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback', '::ffff:7f00:1'],
    ['https://2130706433/hook', 'loopback', '127.0.0.1'],
    ['https://0177.0.0.1/hook', 'loopback', '127.0.0.1'],
    ['https://0x7f.0.0.1/hook', 'loopback', '127.0.0.1'],
    ['https://0.0.0.0/hook', 'unspecified', '0.0.0.0'],
    ['https://[::]/hook', 'unspecified', '::'],
    ['https://10.0.0.5/hook', 'private', '10.0.0.5'],
    ['https://192.168.1.20/hook', 'private', '192.168.1.20'],
    ['https://169.254.10.10/hook', 'link-local', '169.254.10.10'],
  ])('%s is a BindingError naming callbackUrl, the %s class and EGRESS_ALLOW_PRIVATE', (url, cls, ip) => {
    const error = refusal(url);
    expect(error.code).toBe(ErrorCode.BindingError);
    expect(error.message).toBe(`callbackUrl points at a ${cls} address (${ip}); callbacks go to public addresses only (EGRESS_ALLOW_PRIVATE=true allows non-public targets for local development)`);
  });

  it.each(['https://169.254.169.254/latest/meta-data/', 'https://2852039166/', 'https://[::ffff:169.254.169.254]/', 'https://[fd00:ec2::254]/', 'https://100.100.100.200/'])(
    'the cloud metadata address %s is refused even with both development settings',
    (url) => {
      const error = refusal(url, development);
      expect(error.code).toBe(ErrorCode.BindingError);
      expect(error.message).toMatch(/^callbackUrl points at a cloud metadata address \(.+\), which is never called$/);
    },
  );

  it('credentials in the URL are a BindingError that does not echo them', () => {
    const error = refusal('https://alice:s3cret@hooks.example.com/hook');
    expect(error.code).toBe(ErrorCode.BindingError);
    expect(error.message).toMatch(/^callbackUrl must not carry a user name or password/);
    expect(error.message).not.toContain('s3cret');
  });

  it('a text that is not an absolute URL, or another scheme, is a BindingError naming callbackUrl', () => {
    expect(refusal('hooks.example.com/render').message).toBe('callbackUrl must be an absolute https URL');
    expect(refusal('ftp://hooks.example.com/x', development).message).toBe('callbackUrl must be an http(s) URL');
  });

  it('with EGRESS_ALLOW_HTTP and EGRESS_ALLOW_PRIVATE (tests, local development) a loopback http receiver is accepted', () => {
    for (const url of ['http://127.0.0.1:4000/hooks/a?token=x', 'http://localhost:4000/hooks', 'http://[::1]:4000/', 'http://192.168.1.20/hook']) {
      expect(() => checkCallbackUrl(url, development)).not.toThrow();
    }
    expect(refusal('http://127.0.0.1:4000/', { allowHttp: true, allowPrivate: false }).message).toContain('EGRESS_ALLOW_PRIVATE');
    expect(refusal('http://hooks.example.com/', { allowHttp: false, allowPrivate: true }).message).toContain('EGRESS_ALLOW_HTTP');
  });
});
