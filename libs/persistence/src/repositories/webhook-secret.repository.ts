import type { EntityManager } from 'typeorm';
import { Limits } from '@docrender/contracts';
import { generateWebhookSecret } from '../api-keys/webhook-secret-generator';
import { WebhookSecretEntity } from '../entities';

const GRACE_MS = Limits.secretRotationGraceHours * 60 * 60 * 1000;

/**
 * An organisation's webhook signing secrets. Field names match `StoredSigningSecrets` of @docrender/webhooks, so a
 * record can be passed to `signingSecretsAt` as it is.
 */
export type WebhookSecretsRecord = {
  organisationId: string;
  active: string;
  /** The secret replaced by the last rotation; null when there was none. */
  previous: string | null;
  /** When `previous` stopped being the active secret; null when there is no previous secret. */
  rotatedAt: Date | null;
  /** When `previous` stops signing (rotatedAt + 24 h); null when there is no previous secret. */
  previousExpiresAt: Date | null;
};

/**
 * Signing secrets are HMAC keys the dispatcher must use, not passwords to verify, so they are stored retrievably
 * (protect the database and its backups accordingly; they are never exposed by the HTTP interface).
 */
export class WebhookSecretRepository {
  constructor(private readonly manager: EntityManager) {}

  /** Creates the organisation's first secret unless it has one; returns the current record either way. */
  async ensure(organisationId: string, now: Date = new Date()): Promise<WebhookSecretsRecord> {
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(WebhookSecretEntity)
      .values({ organisationId, activeSecret: generateWebhookSecret(), previousSecret: null, previousExpiresAt: null, rotatedAt: now, createdAt: now })
      .orIgnore()
      .execute();
    return this.require(organisationId);
  }

  async find(organisationId: string): Promise<WebhookSecretsRecord | null> {
    const row = await this.manager.findOneBy(WebhookSecretEntity, { organisationId });
    return row ? toRecord(row) : null;
  }

  /**
   * The secrets that sign a delivery attempt made at `now`, active first: the previous secret is included until
   * its 24-hour grace ends (spec 6.4). Empty when the organisation has no secret.
   */
  async signingSecretsAt(organisationId: string, now: Date = new Date()): Promise<string[]> {
    const record = await this.find(organisationId);
    if (!record) return [];
    const previousValid = record.previous !== null && record.previousExpiresAt !== null && now < record.previousExpiresAt;
    return previousValid && record.previous !== null ? [record.active, record.previous] : [record.active];
  }

  /** Replaces the active secret with a new random one; the old one keeps signing for 24 hours. */
  async rotate(organisationId: string, now: Date = new Date()): Promise<WebhookSecretsRecord> {
    return this.replaceActive(organisationId, generateWebhookSecret(), now);
  }

  /**
   * Makes `secret` the active secret (seed files). Nothing changes when it already is; otherwise this is a rotation
   * (the old active secret keeps signing for 24 hours). Creates the row when the organisation has none.
   */
  async setActive(organisationId: string, secret: string, now: Date = new Date()): Promise<WebhookSecretsRecord> {
    const current = await this.find(organisationId);
    if (!current) {
      await this.manager.insert(WebhookSecretEntity, {
        organisationId,
        activeSecret: secret,
        previousSecret: null,
        previousExpiresAt: null,
        rotatedAt: now,
        createdAt: now,
      });
      return this.require(organisationId);
    }
    if (current.active === secret) return current;
    return this.replaceActive(organisationId, secret, now);
  }

  private async replaceActive(organisationId: string, secret: string, now: Date): Promise<WebhookSecretsRecord> {
    await this.ensure(organisationId, now);
    // One statement, so two concurrent rotations cannot lose the secret in between.
    await this.manager.query(
      `UPDATE webhook_secrets
          SET previous_secret = active_secret, previous_expires_at = $3, active_secret = $2, rotated_at = $4
        WHERE organisation_id = $1`,
      [organisationId, secret, new Date(now.getTime() + GRACE_MS), now],
    );
    return this.require(organisationId);
  }

  private async require(organisationId: string): Promise<WebhookSecretsRecord> {
    const record = await this.find(organisationId);
    if (!record) throw new Error(`webhook secret of organisation ${organisationId} vanished`);
    return record;
  }
}

function toRecord(row: WebhookSecretEntity): WebhookSecretsRecord {
  return {
    organisationId: row.organisationId,
    active: row.activeSecret,
    previous: row.previousSecret,
    rotatedAt: row.previousSecret === null ? null : row.rotatedAt,
    previousExpiresAt: row.previousExpiresAt,
  };
}
