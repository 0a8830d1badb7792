import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'organisations' })
export class OrganisationEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) tier!: string;
  @Column({ name: 'included_pages_per_month', type: 'integer' }) includedPagesPerMonth!: number;
  @Column({ name: 'included_tokens_per_month', type: 'integer' }) includedTokensPerMonth!: number;
  @Column({ name: 'billing_period_start', type: 'timestamptz' }) billingPeriodStart!: Date;
  @Column({ name: 'billing_period_end', type: 'timestamptz' }) billingPeriodEnd!: Date;
  @Column({ name: 'retention_days', type: 'integer', nullable: true }) retentionDays!: number | null;
  @Column({ name: 'user_count', type: 'integer' }) userCount!: number;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
  @Column({ name: 'suspended_at', type: 'timestamptz', nullable: true }) suspendedAt!: Date | null;
}
