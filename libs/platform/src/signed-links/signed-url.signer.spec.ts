import { SignedLink } from './signed-link';
import { SignedUrlSigner, type SignedUrlKind } from './signed-url.signer';

const SECRET = 'a-test-secret-of-enough-length';
const now = new Date('2026-11-21T10:00:00.000Z');
const nowSeconds = now.getTime() / 1000;
/** A kind like the preview image's: a path by key, a one-hour lifetime. */
const hourLink: SignedUrlKind<{ id: string; n: number }> = { path: ({ id, n }) => `/v1/things/${id}/versions/${n}/file`, ttlSeconds: 3600 };
const signer = new SignedUrlSigner({ publicBaseUrl: 'https://docs.example.com/', secret: SECRET }, hourLink);

function query(url: string): { expires: string; signature: string } {
  const u = new URL(url);
  return { expires: u.searchParams.get('expires') ?? '', signature: u.searchParams.get('signature') ?? '' };
}

describe('SignedUrlSigner: every signed link, bound to its path and its kind’s lifetime', () => {
  it('4.12: a link is absolute under PUBLIC_BASE_URL, bound to the key’s path, and expires after the kind’s lifetime', () => {
    const url = signer.sign({ id: 'a', n: 2 }, now);
    expect(url).toMatch(/^https:\/\/docs\.example\.com\/v1\/things\/a\/versions\/2\/file\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/);
    const { expires, signature } = query(url);
    expect(Number(expires)).toBe(nowSeconds + 3600);
    expect(signer.verify({ id: 'a', n: 2 }, expires, signature, now)).toBe(true);
    expect(signer.verify({ id: 'a', n: 3 }, expires, signature, now)).toBe(false);
    expect(signer.verify({ id: 'a', n: 2 }, expires, signature, new Date((nowSeconds + 3601) * 1000))).toBe(false);
  });

  it('2.4 (issue 17): the verifier caps a link at its kind’s lifetime: one minted with the key for a day is refused', () => {
    const path = hourLink.path({ id: 'a', n: 2 });
    const day = new SignedLink(SECRET).sign(path, nowSeconds + 86_400);
    expect(signer.verify({ id: 'a', n: 2 }, String(day.expires), day.signature, now)).toBe(false);
  });
});
