import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Environment } from '@docrender/contracts';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'organisation_id', type: 'uuid' }) organisationId!: string;
  @Column({ type: 'text' }) environment!: Environment;
  /** The first characters after the environment prefix: not secret on their own, used to find the row. */
  @Column({ name: 'lookup_prefix', type: 'text' }) lookupPrefix!: string;
  /** Lowercase hex HMAC-SHA256(API_KEY_PEPPER, whole key). */
  @Column({ name: 'key_hash', type: 'text' }) keyHash!: string;
  @Column({ type: 'text', nullable: true }) label!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt!: Date | null;
  /** When the gateway last authenticated a request with it, to about a minute (ApiKeyRepository.recordUse). */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true }) lastUsedAt!: Date | null;
}
