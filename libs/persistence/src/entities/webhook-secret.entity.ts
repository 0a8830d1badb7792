import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per organisation. The secrets are HMAC keys the dispatcher must read back, so they are stored as is. */
@Entity({ name: 'webhook_secrets' })
export class WebhookSecretEntity {
  @PrimaryColumn({ name: 'organisation_id', type: 'uuid' }) organisationId!: string;
  @Column({ name: 'active_secret', type: 'text' }) activeSecret!: string;
  @Column({ name: 'previous_secret', type: 'text', nullable: true }) previousSecret!: string | null;
  /** When the previous secret stops signing (rotation time + 24 h). */
  @Column({ name: 'previous_expires_at', type: 'timestamptz', nullable: true }) previousExpiresAt!: Date | null;
  /** When the active secret became active. */
  @Column({ name: 'rotated_at', type: 'timestamptz' }) rotatedAt!: Date;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
