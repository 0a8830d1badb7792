import { createHmac, timingSafeEqual } from 'node:crypto';
import { Limits } from '@docrender/contracts';

/** Clock difference between the instances that sign and verify a link, tolerated on top of the lifetime cap. */
export const SIGNED_LINK_CLOCK_SKEW_SECONDS = 300;

const EXPIRES = /^\d{1,12}$/;
/** base64url of a 32-byte HMAC-SHA256. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** The query parameters of a signed link. */
export type LinkSignature = { expires: number; signature: string };

/**
 * HMAC-SHA256 signatures binding a path (e.g. `/v1/documents/<id>/file`) to an expiry (Unix seconds). A link for one
 * path cannot be used for another, and changing any character of the path, the expiry or the signature breaks it.
 */
export class SignedLink {
  constructor(private readonly secret: string) {}

  sign(path: string, expires: number): LinkSignature {
    return { expires, signature: this.mac(path, expires).toString('base64url') };
  }

  /**
   * True when `signature` was made by this key for `path` and `expires`, `expires` is not past at `now`, and it is at
   * most `lifetimeSeconds` (default 7 days) after `now` (spec 2.4: a link is valid 7 days from issue, and no link is
   * issued in the future, so the verifier caps the lifetime: even a holder of the key cannot mint a link that outlives
   * its kind's lifetime). The raw query values are accepted as given (anything that is not one string fails).
   */
  verify(path: string, expires: unknown, signature: unknown, now: Date, lifetimeSeconds: number = Limits.viewUrlTtlSeconds): boolean {
    if (typeof expires !== 'string' || typeof signature !== 'string') return false;
    if (!EXPIRES.test(expires) || !SIGNATURE.test(signature)) return false;
    const expiresAt = Number(expires);
    const nowSeconds = Math.floor(now.getTime() / 1000);
    if (nowSeconds > expiresAt) return false;
    if (expiresAt - nowSeconds > lifetimeSeconds + SIGNED_LINK_CLOCK_SKEW_SECONDS) return false;
    return timingSafeEqual(Buffer.from(signature, 'base64url'), this.mac(path, expiresAt));
  }

  private mac(path: string, expires: number): Buffer {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`, 'utf8').digest();
  }
}

/** `base` (scheme, host, optional path prefix) without its trailing slashes. */
export function trimBaseUrl(base: string): string {
  return base.replace(/\/+$/, '');
}
