import { ApiProperty } from '@nestjs/swagger';
import { RenderedDocumentDto } from '../documents/document.dto';
import { RenderIssueDto } from '../issues/render-issue.dto';
import { RenderStatus } from './render-status';

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
