import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'workspace_sessions' })
export class WorkspaceSessionEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  /** Lowercase hex SHA-256 of the session token (the cookie's value); the token itself is not stored. */
  @Column({ name: 'token_hash', type: 'text' }) tokenHash!: string;
  /** The token every write of the session must send in X-CSRF-Token. */
  @Column({ name: 'csrf_token', type: 'text' }) csrfToken!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt!: Date | null;
}
