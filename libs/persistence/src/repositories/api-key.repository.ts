import { randomUUID } from 'node:crypto';
import { IsNull, type EntityManager } from 'typeorm';
import type { Environment } from '@docrender/contracts';
import { digestsEqual, generateApiKey, hashApiKey, parseApiKey } from '../api-keys/api-key-secret';
import { ApiKeyEntity } from '../entities';
import { RecordConflictError } from '../persistence.error';
import { queryPrepared, type PreparedStatement } from '../prepared-statement';

/** A stored key, without anything secret. */
export type ApiKeyRecord = {
  id: string;
  organisationId: string;
  environment: Environment;
  /** The non-secret lookup prefix, e.g. `service_test_Ab3dE…` is shown as its first 12 characters after the prefix. */
  lookupPrefix: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  /** When a request last authenticated with it, to about a minute; null when never. */
  lastUsedAt: Date | null;
};

/** A key as the admin CLI prints it and the workspace answers it: nothing secret, times as ISO 8601. */
export function apiKeySummary(k: ApiKeyRecord): {
  id: string;
  environment: Environment;
  lookupPrefix: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
} {
  return {
    id: k.id,
    environment: k.environment,
    lookupPrefix: k.lookupPrefix,
    label: k.label,
    createdAt: k.createdAt.toISOString(),
    revokedAt: k.revokedAt?.toISOString() ?? null,
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  };
}

/** What a valid, unrevoked key stands for. */
export type AuthenticatedApiKey = {
  apiKeyId: string;
  organisationId: string;
  /** Decided by the key's prefix (spec part 1). */
  environment: Environment;
  /** The organisation was deleted: the key is well formed and known but has no organisation (401 NotAuthenticated). */
  organisationDeleted: boolean;
  /** The organisation is suspended: it may read, but not render or write (403 Forbidden). */
  organisationSuspended: boolean;
};

/** The keys sharing a key's lookup prefix and environment, with their organisation's state (every request's first statement). */
const KEY_CANDIDATES: PreparedStatement = {
  name: 'api-key-candidates',
  text: `SELECT k.id, k.organisation_id, k.key_hash, k.revoked_at, o.deleted_at IS NOT NULL AS organisation_deleted, o.suspended_at IS NOT NULL AS organisation_suspended
           FROM api_keys k JOIN organisations o ON o.id = k.organisation_id
          WHERE k.lookup_prefix = $1 AND k.environment = $2`,
};

const RECORD_USE: PreparedStatement = {
  name: 'api-key-record-use',
  text: `UPDATE api_keys SET last_used_at = $2
          WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - interval '1 minute')
          RETURNING 1`,
};

type KeyCandidateRow = { id: string; organisation_id: string; key_hash: string; revoked_at: Date | null; organisation_deleted: boolean; organisation_suspended: boolean };

/**
 * API keys are stored as HMAC-SHA256(pepper, key) plus a short non-secret lookup prefix; the plaintext is returned
 * once by `create` and never stored.
 */
export class ApiKeyRepository {
  constructor(
    private readonly manager: EntityManager,
    private readonly pepper: string,
  ) {}

  /** Makes a new random key. The plaintext in the result is the only copy: show it once. */
  async create(
    organisationId: string,
    environment: Environment,
    options: { label?: string | null; now?: Date } = {},
  ): Promise<{ record: ApiKeyRecord; plaintextKey: string }> {
    const plaintextKey = generateApiKey(environment);
    const record = await this.store(organisationId, plaintextKey, options.label ?? null, options.now ?? new Date());
    return { record, plaintextKey };
  }

  /**
   * Stores a given key (seed files). Idempotent: a key already stored for the same organisation is returned as it is
   * (a revoked key stays revoked). Throws RecordConflictError when it belongs to another organisation, and Error
   * when it is malformed.
   */
  async importKey(organisationId: string, plaintextKey: string, options: { label?: string | null; now?: Date } = {}): Promise<ApiKeyRecord> {
    const existing = await this.manager.findOneBy(ApiKeyEntity, { keyHash: hashApiKey(plaintextKey, this.pepper) });
    if (existing) {
      if (existing.organisationId !== organisationId) {
        throw new RecordConflictError(`API key ${existing.lookupPrefix}… already belongs to another organisation`);
      }
      return toRecord(existing);
    }
    return this.store(organisationId, plaintextKey, options.label ?? null, options.now ?? new Date());
  }

  /**
   * The organisation and environment of a key; null when it is malformed, unknown or revoked.
   * Finds candidate rows by the lookup prefix, then compares the HMAC digests in constant time.
   */
  async authenticate(plaintextKey: string): Promise<AuthenticatedApiKey | null> {
    const parsed = parseApiKey(plaintextKey);
    if (!parsed) return null;
    const candidates = await queryPrepared<KeyCandidateRow>(this.manager, KEY_CANDIDATES, [parsed.lookupPrefix, parsed.environment]);
    const digest = hashApiKey(plaintextKey, this.pepper);
    // Compare against every candidate (no early exit) so timing does not depend on which one matches.
    let match: (typeof candidates)[number] | undefined;
    for (const candidate of candidates) {
      if (digestsEqual(candidate.key_hash, digest)) match = candidate;
    }
    if (!match || match.revoked_at !== null) return null;
    return {
      apiKeyId: match.id,
      organisationId: match.organisation_id,
      environment: parsed.environment,
      organisationDeleted: match.organisation_deleted,
      organisationSuspended: match.organisation_suspended,
    };
  }

  /** Revokes a key; false when it is unknown or already revoked. */
  async revoke(apiKeyId: string, now: Date = new Date()): Promise<boolean> {
    const result = await this.manager.update(ApiKeyEntity, { id: apiKeyId, revokedAt: IsNull() }, { revokedAt: now });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Records that a request authenticated with the key at `now` (issue 35 item 4). Writes only when the stored time is
   * at least a minute older, so that replicas using one key at once update its row about once a minute; answers
   * whether it wrote.
   */
  async recordUse(apiKeyId: string, now: Date = new Date()): Promise<boolean> {
    return (await queryPrepared(this.manager, RECORD_USE, [apiKeyId, now])).length > 0;
  }

  async findById(apiKeyId: string): Promise<ApiKeyRecord | null> {
    const row = await this.manager.findOneBy(ApiKeyEntity, { id: apiKeyId });
    return row ? toRecord(row) : null;
  }

  async listByOrganisation(organisationId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.manager.find(ApiKeyEntity, { where: { organisationId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toRecord);
  }

  private async store(organisationId: string, plaintextKey: string, label: string | null, now: Date): Promise<ApiKeyRecord> {
    const parsed = parseApiKey(plaintextKey);
    if (!parsed) throw new Error('malformed API key');
    const row: ApiKeyEntity = {
      id: randomUUID(),
      organisationId,
      environment: parsed.environment,
      lookupPrefix: parsed.lookupPrefix,
      keyHash: hashApiKey(plaintextKey, this.pepper),
      label,
      createdAt: now,
      revokedAt: null,
      lastUsedAt: null,
    };
    await this.manager.insert(ApiKeyEntity, row);
    return toRecord(row);
  }
}

function toRecord(row: ApiKeyEntity): ApiKeyRecord {
  return {
    id: row.id,
    organisationId: row.organisationId,
    environment: row.environment,
    lookupPrefix: row.lookupPrefix,
    label: row.label,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}
