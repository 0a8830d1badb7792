import { ApiProperty } from '@nestjs/swagger';

/** Spec 2.2. */
export class TemplateDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) documentNameTemplate!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) projectId!: string | null;
  @ApiProperty({ type: String, nullable: true }) projectName!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Newest published version; null until something is published.' })
  latestVersionNumber!: number | null;
  @ApiProperty({ description: 'All versions, published or not.' }) versionCount!: number;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ description: 'A user identifier.' }) updatedBy!: string;
  @ApiProperty({ type: String, nullable: true }) masterTemplateId!: string | null;
  @ApiProperty({ type: String, nullable: true }) masterTemplateName!: string | null;
}

/** Spec 2.3 without templateJson and sampleData: the items of the version list. */
export class TemplateVersionSummaryDto {
  @ApiProperty({ format: 'uuid', description: "The version record's own id, distinct from templateId." }) id!: string;
  @ApiProperty() versionNumber!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Raw JSON string of translation strings.' }) translations!: string | null;
  @ApiProperty({ type: String, nullable: true }) documentNameTemplate!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null for an unpublished draft' }) publishedAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) publishedBy!: string | null;
  @ApiProperty({ format: 'uuid' }) templateId!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** Spec 2.3. */
export class TemplateVersionDto extends TemplateVersionSummaryDto {
  @ApiProperty({ description: 'The raw template DSL as a JSON string.' }) templateJson!: string;
  @ApiProperty({ description: 'JSON text: an object with `data` (sample document data) and `i18n`.' }) sampleData!: string;
}
