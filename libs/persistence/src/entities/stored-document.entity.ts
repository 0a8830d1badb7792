import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DocumentConformance, DocumentType } from '@docrender/contracts';
import { TemplateRenderColumns } from './template-render.columns';

@Entity({ name: 'documents' })
export class StoredDocumentEntity extends TemplateRenderColumns {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ name: 'document_name', type: 'text' }) documentName!: string;
  @Column({ name: 'document_type', type: 'text' }) documentType!: DocumentType;
  @Column({ name: 'pdf_blob_key', type: 'text' }) pdfBlobKey!: string;
  @Column({ name: 'file_size_bytes', type: 'integer' }) fileSizeBytes!: number;
  @Column({ name: 'page_count', type: 'integer' }) pageCount!: number;
  @Column({ name: 'rendered_at', type: 'timestamptz' }) renderedAt!: Date;
  @Column({ name: 'render_duration_ms', type: 'integer' }) renderDurationMs!: number;
  @Column({ name: 'is_pdf_deleted', type: 'boolean' }) isPdfDeleted!: boolean;
  @Column({ name: 'render_job_id', type: 'uuid', nullable: true }) renderJobId!: string | null;
  @Column({ type: 'jsonb', nullable: true }) conformance!: DocumentConformance | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
