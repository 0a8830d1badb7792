import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { WorkspaceRole } from '../workspace/workspace-role';

@Entity({ name: 'workspace_users' })
export class WorkspaceUserEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'organisation_id', type: 'uuid' }) organisationId!: string;
  @Column({ type: 'text' }) email!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) role!: WorkspaceRole;
  /** `scrypt$N$r$p$salt$hash` (base64url), see workspace-password.ts. */
  @Column({ name: 'password_hash', type: 'text' }) passwordHash!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true }) disabledAt!: Date | null;
}
