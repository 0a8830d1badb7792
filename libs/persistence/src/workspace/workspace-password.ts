import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Workspace passwords are hashed with scrypt (memory-hard; decision 0035): N = 2^15, r = 8, p = 1 takes 32 MiB and
 * tens of milliseconds per hash. Stored as `scrypt$N$r$p$<salt>$<hash>` (base64url) so the cost can be raised later
 * without invalidating stored hashes.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** Shortest password accepted. */
export const MIN_PASSWORD_LENGTH = 12;

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  const scryptOptions: ScryptOptions = { ...options, maxmem: 128 * options.N * options.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, scryptOptions, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches the stored hash (constant-time comparison); false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await derive(password, Buffer.from(parts[4], 'base64url'), { N, r, p });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to compare against when the user does not exist, so that an unknown e-mail costs the same time. */
export const UNKNOWN_USER_PASSWORD_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** Why a password cannot be used, or null when it can. */
export function passwordProblem(password: string): string | null {
  return password.length < MIN_PASSWORD_LENGTH ? `needs at least ${MIN_PASSWORD_LENGTH} characters` : null;
}

/** A random password for a new user (shown once by the admin CLI): 24 base64url characters, 144 bits. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
