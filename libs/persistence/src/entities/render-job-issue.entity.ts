import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { IssueSeverity, RenderIssueType } from '@docrender/contracts';

/** One of the first 100 issues of a job (spec 4.6), in the order they were produced. */
@Entity({ name: 'render_job_issues' })
export class RenderJobIssueEntity {
  @PrimaryColumn({ name: 'job_id', type: 'uuid' }) jobId!: string;
  /** 0-based order of the issue within the job. */
  @PrimaryColumn({ type: 'integer' }) position!: number;
  @Column({ type: 'text' }) type!: RenderIssueType;
  @Column({ type: 'text' }) severity!: IssueSeverity;
  @Column({ type: 'text' }) description!: string;
  @Column({ name: 'element_id', type: 'text', nullable: true }) elementId!: string | null;
  @Column({ name: 'document_index', type: 'integer', nullable: true }) documentIndex!: number | null;
}
