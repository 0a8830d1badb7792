import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'templates' })
export class TemplateEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'organisation_id', type: 'uuid' }) organisationId!: string;
  @Column({ name: 'project_id', type: 'uuid', nullable: true }) projectId!: string | null;
  @Column({ type: 'text' }) name!: string;
  @Column({ name: 'document_name_template', type: 'text', nullable: true }) documentNameTemplate!: string | null;
  @Column({ name: 'master_template_id', type: 'uuid', nullable: true }) masterTemplateId!: string | null;
  @Column({ name: 'updated_by', type: 'text' }) updatedBy!: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
