import { randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@docrender/contracts';

const SECRET_BODY = /^[A-Za-z0-9_-]{16,256}$/;

/** A new signing secret: `whsec_` followed by 32 random bytes in base64url (43 characters). */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** Why a value cannot be a signing secret, or null when it can. */
export function webhookSecretProblem(secret: string): string | null {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return `must start with ${WEBHOOK_SECRET_PREFIX}`;
  return SECRET_BODY.test(secret.slice(WEBHOOK_SECRET_PREFIX.length))
    ? null
    : `needs 16 to 256 characters of A-Z a-z 0-9 _ - after ${WEBHOOK_SECRET_PREFIX}`;
}
