import { Limits } from '@docrender/contracts';
import { DEV_VIEW_URL_SECRET, gatewaySettings, Settings, viewUrlSettings } from '@docrender/config';
import { SignedLink, SIGNED_LINK_CLOCK_SKEW_SECONDS } from './signed-link';
import { signedLinkConfig, ViewUrlSigner } from './view-url.signer';

const DOC = '3f1c8a52-8a0e-4f8e-9a7c-0d3b7c1e2f40';
const now = new Date('2026-11-21T10:00:00.000Z');
const signer = new ViewUrlSigner({ publicBaseUrl: 'https://docs.example.com/api/', secret: 'a-test-secret-of-enough-length' });

function parts(url: string): { path: string; expires: string; signature: string } {
  const u = new URL(url);
  return { path: u.pathname, expires: u.searchParams.get('expires') ?? '', signature: u.searchParams.get('signature') ?? '' };
}

describe('ViewUrlSigner', () => {
  it('2.4: viewUrl is an absolute link to the document file under PUBLIC_BASE_URL', () => {
    const url = signer.sign(DOC, now);
    expect(url).toMatch(new RegExp(`^https://docs\\.example\\.com/api/v1/documents/${DOC}/file\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`));
  });

  it('2.4: the link expires 7 days after it was generated', () => {
    const { expires } = parts(signer.sign(DOC, now));
    expect(Number(expires)).toBe(now.getTime() / 1000 + Limits.viewUrlTtlSeconds);
  });

  it('2.4: the link verifies without a key until its expiry, and not one second later', () => {
    const { expires, signature } = parts(signer.sign(DOC, now));
    expect(signer.verify(DOC, expires, signature, now)).toBe(true);
    const lastSecond = new Date((Number(expires) + 0.999) * 1000);
    expect(signer.verify(DOC, expires, signature, lastSecond)).toBe(true);
    expect(signer.verify(DOC, expires, signature, new Date((Number(expires) + 1) * 1000))).toBe(false);
  });

  it('2.4: a tampered link fails (other document, later expiry, changed signature)', () => {
    const { expires, signature } = parts(signer.sign(DOC, now));
    expect(signer.verify('3f1c8a52-8a0e-4f8e-9a7c-0d3b7c1e2f41', expires, signature, now)).toBe(false);
    expect(signer.verify(DOC, String(Number(expires) + 86_400), signature, now)).toBe(false);
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    expect(signer.verify(DOC, expires, flipped, now)).toBe(false);
  });

  it('2.4 (issue 17): the verifier caps a link at 7 days from issue: one signed with the key but a later expiry is refused', () => {
    const link = new SignedLink('a-test-secret-of-enough-length');
    const path = `/v1/documents/${DOC}/file`;
    const nowSeconds = now.getTime() / 1000;
    const sevenDays = link.sign(path, nowSeconds + Limits.viewUrlTtlSeconds);
    expect(signer.verify(DOC, String(sevenDays.expires), sevenDays.signature, now)).toBe(true);
    const tooLong = link.sign(path, nowSeconds + Limits.viewUrlTtlSeconds + SIGNED_LINK_CLOCK_SKEW_SECONDS + 1);
    expect(signer.verify(DOC, String(tooLong.expires), tooLong.signature, now)).toBe(false);
    const forever = link.sign(path, 999_999_999_999);
    expect(signer.verify(DOC, String(forever.expires), forever.signature, now)).toBe(false);
    // Once the link's last 7 days have begun, the same link is accepted until it expires.
    expect(signer.verify(DOC, String(tooLong.expires), tooLong.signature, new Date(now.getTime() + 3600_000))).toBe(true);
  });

  it('2.4: a link signed with another secret fails', () => {
    const other = new ViewUrlSigner({ publicBaseUrl: 'https://docs.example.com/api', secret: 'another-secret-of-enough-length' });
    const { expires, signature } = parts(other.sign(DOC, now));
    expect(signer.verify(DOC, expires, signature, now)).toBe(false);
  });

  it.each([
    ['missing values', undefined, undefined],
    ['repeated query values', ['1'], ['x']],
    ['a non-numeric expiry', 'soon', 'A'.repeat(43)],
    ['a short signature', '9999999999', 'abc'],
  ])('2.4: %s are refused without throwing', (_name, expires, signature) => {
    expect(signer.verify(DOC, expires, signature, now)).toBe(false);
  });

  it('2.4: a purged PDF has the empty string as viewUrl', () => {
    expect(signer.viewUrlOf({ id: DOC, isPdfDeleted: true }, now)).toBe('');
    expect(signer.viewUrlOf({ id: DOC, isPdfDeleted: false }, now)).toBe(signer.sign(DOC, now));
  });

  it('PUBLIC_BASE_URL defaults to http://localhost:<PORT>, VIEW_URL_SECRET to the public development key', () => {
    const configOf = (env: NodeJS.ProcessEnv) => signedLinkConfig(Settings.load([viewUrlSettings, gatewaySettings], env));
    expect(configOf({ PORT: '8081' })).toEqual({ publicBaseUrl: 'http://localhost:8081', secret: DEV_VIEW_URL_SECRET });
    expect(configOf({ PUBLIC_BASE_URL: 'https://x.example/', VIEW_URL_SECRET: 'sixteen-chars-ok!' })).toEqual({
      publicBaseUrl: 'https://x.example',
      secret: 'sixteen-chars-ok!',
    });
    expect(() => configOf({ VIEW_URL_SECRET: 'short' })).toThrow(/VIEW_URL_SECRET/);
  });
});
