import { ApiProperty } from '@nestjs/swagger';
import { RenderedDocumentDto } from '../documents/document.dto';
import { RenderIssueDto } from '../issues/render-issue';

/** Spec 3.2 render outcome. */
export enum RenderStatus {
  Ok = 'ok',
  Partial = 'partial',
  Failed = 'failed',
  InsufficientCredit = 'insufficient_credit',
}

/** Spec 2.6. */
export class RenderEnvelopeDto {
  @ApiProperty({ enum: RenderStatus }) status!: RenderStatus;
  @ApiProperty({ description: 'Human-readable summary; not for parsing.' }) message!: string;
  @ApiProperty() requestedCount!: number;
  @ApiProperty() renderedCount!: number;
  @ApiProperty({ description: 'requestedCount minus renderedCount, whatever the reason.' }) missingCount!: number;
  @ApiProperty({ type: [RenderIssueDto] }) issues!: RenderIssueDto[];
  @ApiProperty({ type: [RenderedDocumentDto], description: 'Blocked documents leave gaps; correlate by documentIndex.' })
  documents!: RenderedDocumentDto[];
}

/** Spec 4.4 response. */
export class ValidateResponseDto {
  @ApiProperty({ type: [RenderIssueDto], description: 'Flat across the batch; empty means every document is clean.' })
  issues!: RenderIssueDto[];
}

/** The outcome vocabulary of spec 3.2, from counts. `creditStopped` wins when credit ran out. */
export function renderStatusOf(requested: number, rendered: number, creditStopped: boolean): RenderStatus {
  if (creditStopped) return RenderStatus.InsufficientCredit;
  if (rendered === 0 && requested > 0) return RenderStatus.Failed;
  if (rendered < requested) return RenderStatus.Partial;
  return RenderStatus.Ok;
}
