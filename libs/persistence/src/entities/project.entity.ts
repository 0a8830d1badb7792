import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'projects' })
export class ProjectEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'organisation_id', type: 'uuid' }) organisationId!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
