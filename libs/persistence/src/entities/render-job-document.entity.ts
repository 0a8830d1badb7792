import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RenderIssue, RenderOutcome } from '@docrender/contracts';

/** The recorded outcome of one document of a job; (job, documentIndex) is unique so a redelivered job skips it. */
@Entity({ name: 'render_job_documents' })
export class RenderJobDocumentEntity {
  @PrimaryColumn({ name: 'job_id', type: 'uuid' }) jobId!: string;
  @PrimaryColumn({ name: 'document_index', type: 'integer' }) documentIndex!: number;
  @Column({ type: 'text' }) outcome!: RenderOutcome;
  @Column({ name: 'document_id', type: 'uuid', nullable: true }) documentId!: string | null;
  /** Every issue of this document, untruncated (the completion callback carries them all). */
  @Column({ type: 'jsonb' }) issues!: RenderIssue[];
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
