import { createHmac, timingSafeEqual } from 'node:crypto';

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
   * True when `signature` was made by this key for `path` and `expires`, and `expires` is not past at `now`.
   * The raw query values are accepted as given (anything that is not one string fails).
   */
  verify(path: string, expires: unknown, signature: unknown, now: Date): boolean {
    if (typeof expires !== 'string' || typeof signature !== 'string') return false;
    if (!EXPIRES.test(expires) || !SIGNATURE.test(signature)) return false;
    const expiresAt = Number(expires);
    if (Math.floor(now.getTime() / 1000) > expiresAt) return false;
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
