import { ApiProperty } from '@nestjs/swagger';
import { RenderIssueDto } from '../issues/render-issue.dto';
import { RenderStatus } from '../render/render-status';
import { JobState } from './job-state';

/** Spec 2.8: the enqueue response. */
export class JobAcceptedDto {
  @ApiProperty({ format: 'uuid' }) jobId!: string;
  @ApiProperty() requestedCount!: number;
  @ApiProperty({ enum: ['queued'], description: 'Always `queued` on this response.' }) state!: 'queued';
}

/** Spec 2.9. */
export class JobStatusDto {
  @ApiProperty({ format: 'uuid' }) jobId!: string;
  @ApiProperty({ enum: JobState }) state!: JobState;
  @ApiProperty({ enum: [...Object.values(RenderStatus), null], nullable: true, description: 'null while state is pending' }) status!: RenderStatus | null;
  @ApiProperty() renderedCount!: number;
  @ApiProperty() requestedCount!: number;
  @ApiProperty() missingCount!: number;
  @ApiProperty({ type: [RenderIssueDto], description: 'At most the first 100; counts stay exact.' }) issues!: RenderIssueDto[];
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Set only when state is failed.' }) failureReason!: string | null;
}
