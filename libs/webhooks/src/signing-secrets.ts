import { Limits } from '@docrender/contracts';
import type { SigningSecrets } from './webhook-signer';

/** An organisation's signing secrets as stored: the previous one (if any) and when it was replaced. */
export type StoredSigningSecrets = {
  active: string;
  previous: string | null;
  /** When `previous` stopped being the active secret; null when there is no previous secret. */
  rotatedAt: Date | null;
};

/** The rotation grace of spec 6.4 / part 8: the previous secret keeps signing for 24 hours. */
export const ROTATION_GRACE_MS = Limits.secretRotationGraceHours * 60 * 60 * 1000;

/**
 * The secrets that sign an attempt made at `now`: the previous secret is included while fewer than 24 hours have
 * passed since the rotation (the grace ends exactly at rotatedAt + 24 h), and dropped afterwards.
 */
export function signingSecretsAt(stored: StoredSigningSecrets, now: Date): SigningSecrets {
  const inGrace =
    stored.previous !== null && stored.rotatedAt !== null && now.getTime() < stored.rotatedAt.getTime() + ROTATION_GRACE_MS;
  return inGrace ? { active: stored.active, previous: stored.previous } : { active: stored.active };
}
