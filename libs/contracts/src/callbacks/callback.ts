import { ApiProperty } from '@nestjs/swagger';
import { RenderedDocumentDto } from '../documents/document.dto';
import { RenderIssueDto } from '../issues/render-issue.dto';
import { JobState } from '../jobs/job-state';
import { RenderStatus } from '../render/render-status';

/** Spec 2.10. */
export class ProgressCallbackDto {
  @ApiProperty({ format: 'uuid' }) jobId!: string;
  @ApiProperty({ description: 'Documents completed so far (a snapshot).' }) processed!: number;
  @ApiProperty() requestedCount!: number;
  @ApiProperty() documentIndex!: number;
  @ApiProperty({ type: RenderedDocumentDto }) document!: RenderedDocumentDto;
}

/** Spec 2.11. */
export class CompletionCallbackDto {
  @ApiProperty({ format: 'uuid' }) jobId!: string;
  @ApiProperty({ enum: [JobState.Completed, JobState.Failed] }) state!: JobState.Completed | JobState.Failed;
  @ApiProperty({ enum: RenderStatus }) status!: RenderStatus;
  @ApiProperty() renderedCount!: number;
  @ApiProperty() requestedCount!: number;
  @ApiProperty() missingCount!: number;
  @ApiProperty() message!: string;
  @ApiProperty({ type: [RenderIssueDto], description: 'Every issue the job produced, untruncated.' }) issues!: RenderIssueDto[];
}

export type CallbackBody =
  | { kind: 'progress'; body: ProgressCallbackDto }
  | { kind: 'completion'; body: CompletionCallbackDto };
