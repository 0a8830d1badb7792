import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'template_versions' })
export class TemplateVersionEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'template_id', type: 'uuid' }) templateId!: string;
  @Column({ name: 'version_number', type: 'integer' }) versionNumber!: number;
  /** The DSL as JSON text (spec 2.3 templateJson). */
  @Column({ name: 'template_json', type: 'text' }) templateJson!: string;
  /** JSON text of `{ data, i18n }`. */
  @Column({ name: 'sample_data', type: 'text' }) sampleData!: string;
  @Column({ type: 'text', nullable: true }) translations!: string | null;
  @Column({ name: 'document_name_template', type: 'text', nullable: true }) documentNameTemplate!: string | null;
  @Column({ name: 'published_at', type: 'timestamptz', nullable: true }) publishedAt!: Date | null;
  @Column({ name: 'published_by', type: 'text', nullable: true }) publishedBy!: string | null;
  @Column({ name: 'preview_image_blob_key', type: 'text', nullable: true }) previewImageBlobKey!: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
