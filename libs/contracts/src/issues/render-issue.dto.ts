import { ApiProperty } from '@nestjs/swagger';
import { IssueSeverity, RenderIssueType } from './render-issue';

/** Spec 2.7. */
export class RenderIssueDto {
  @ApiProperty({ enum: RenderIssueType, description: 'Category; clients switch on this.' })
  type!: RenderIssueType;

  @ApiProperty({ enum: IssueSeverity })
  severity!: IssueSeverity;

  @ApiProperty({ description: 'Human-readable; clients switch on type, not on this.' })
  description!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Template element concerned, when there is one.' })
  elementId!: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Document concerned; null for a batch-wide issue.' })
  documentIndex!: number | null;
}
