import { ApiProperty } from '@nestjs/swagger';
import { Environment } from '../environment';

export enum DocumentType {
  Template = 'Template',
  Invoice = 'Invoice',
}

/** Fields shared by spec 2.4 and 2.5. */
class DocumentFieldsDto {
  @ApiProperty({ description: "From the version's document-name template; no file extension." }) documentName!: string;
  @ApiProperty({ format: 'uuid' }) templateId!: string;
  @ApiProperty() versionNumber!: number;
  @ApiProperty({ enum: Environment }) environment!: Environment;
  @ApiProperty() fileSizeBytes!: number;
  @ApiProperty() pageCount!: number;
  @ApiProperty({ format: 'date-time' }) renderedAt!: string;
  @ApiProperty({ description: 'Server-side render time, milliseconds.' }) renderDuration!: number;
  @ApiProperty({ enum: DocumentType }) documentType!: DocumentType;
  @ApiProperty({ type: String, nullable: true }) language!: string | null;
}

/** Spec 2.4: stored document metadata. */
export class StoredDocumentDto extends DocumentFieldsDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'Signed download link valid 7 days from generation of the response; empty string when isPdfDeleted.' })
  viewUrl!: string;
  @ApiProperty({ description: 'True when retention purged the stored PDF while metadata remains.' }) isPdfDeleted!: boolean;
}

/** Spec 2.5: a rendered document inside a render envelope. */
export class RenderedDocumentDto extends DocumentFieldsDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null when persist=false' }) id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'null when persist=false' }) viewUrl!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'PDF bytes, Base64; only when includeDocument=true or persist=false' })
  documentBase64!: string | null;
  @ApiProperty({ description: "Zero-based position in the request's documents array." }) documentIndex!: number;
}
