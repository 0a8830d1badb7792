import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX, Environment, environmentOfKey } from '@docrender/contracts';

/** Characters after the environment prefix that are stored in clear to find a key's row (not enough to use it). */
export const API_KEY_LOOKUP_PREFIX_LENGTH = 12;
/** Characters of a generated key after the environment prefix (base62, ≈ 238 bits). */
export const GENERATED_API_KEY_BODY_LENGTH = 40;
/** Accepted shape of the part after `service_test_` / `service_prod_` (imported keys may use `-` and `_`). */
const KEY_BODY = /^[A-Za-z0-9_-]{16,256}$/;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export type ParsedApiKey = { environment: Environment; lookupPrefix: string };

/** A new random key of the environment: `service_test_` or `service_prod_` followed by 40 base62 characters. */
export function generateApiKey(environment: Environment): string {
  let body = '';
  while (body.length < GENERATED_API_KEY_BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 × 62: rejecting bytes ≥ 248 keeps every character equally likely.
      if (byte < 248 && body.length < GENERATED_API_KEY_BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  return API_KEY_PREFIX[environment] + body;
}

/** The environment and lookup prefix of a well-formed key; null when the key is malformed. */
export function parseApiKey(plaintextKey: string): ParsedApiKey | null {
  const environment = environmentOfKey(plaintextKey);
  if (environment === null) return null;
  const body = plaintextKey.slice(API_KEY_PREFIX[environment].length);
  if (!KEY_BODY.test(body)) return null;
  return { environment, lookupPrefix: body.slice(0, API_KEY_LOOKUP_PREFIX_LENGTH) };
}

/** Why a key cannot be imported, or null when it can. Used to name the bad argument or seed entry. */
export function apiKeyProblem(plaintextKey: string): string | null {
  if (environmentOfKey(plaintextKey) === null) {
    return `must start with ${API_KEY_PREFIX[Environment.Test]} or ${API_KEY_PREFIX[Environment.Production]}`;
  }
  return parseApiKey(plaintextKey) === null ? 'needs 16 to 256 characters of A-Z a-z 0-9 _ - after the prefix' : null;
}

/** Lowercase hex HMAC-SHA256 of the whole key, keyed with the server pepper. This is what is stored. */
export function hashApiKey(plaintextKey: string, pepper: string): string {
  return createHmac('sha256', pepper).update(plaintextKey, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, 'hex');
  const b = Buffer.from(bHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
