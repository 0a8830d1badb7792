import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'usage_periods' })
export class UsagePeriodEntity {
  @PrimaryColumn({ name: 'organisation_id', type: 'uuid' }) organisationId!: string;
  @PrimaryColumn({ name: 'period_start', type: 'timestamptz' }) periodStart!: Date;
  @Column({ name: 'period_end', type: 'timestamptz' }) periodEnd!: Date;
  @Column({ name: 'pages_used', type: 'integer' }) pagesUsed!: number;
  @Column({ name: 'tokens_used', type: 'integer' }) tokensUsed!: number;
}
