import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JobState, RenderStatus } from '@docrender/contracts';
import { TemplateRenderColumns } from './template-render.columns';

@Entity({ name: 'render_jobs' })
export class RenderJobEntity extends TemplateRenderColumns {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ type: 'boolean' }) persist!: boolean;
  @Column({ name: 'include_document', type: 'boolean' }) includeDocument!: boolean;
  @Column({ name: 'callback_url', type: 'text' }) callbackUrl!: string;
  /** Where the gateway put the job's input documents (JSON array) in the blob store. */
  @Column({ name: 'input_blob_key', type: 'text' }) inputBlobKey!: string;
  @Column({ type: 'text' }) state!: JobState;
  @Column({ type: 'text', nullable: true }) status!: RenderStatus | null;
  @Column({ name: 'requested_count', type: 'integer' }) requestedCount!: number;
  @Column({ name: 'rendered_count', type: 'integer' }) renderedCount!: number;
  /** Every issue the job produced; only the first 100 are stored in render_job_issues. */
  @Column({ name: 'issue_count', type: 'integer' }) issueCount!: number;
  /** Every recorded document outcome (rendered, blocked, failed): the `processed` of the next progress callback, less one. */
  @Column({ name: 'recorded_count', type: 'integer' }) recordedCount!: number;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'started_at', type: 'timestamptz', nullable: true }) startedAt!: Date | null;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt!: Date | null;
  @Column({ name: 'failure_reason', type: 'text', nullable: true }) failureReason!: string | null;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
