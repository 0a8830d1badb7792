import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, ValidateIf } from 'class-validator';

/** Spec 4.11 body. */
export class UpdateDocumentNameTemplateDto {
  @ApiProperty({ type: String, nullable: true, description: 'Naming pattern with bindings; null clears it.', example: 'Invoice {{number}}' })
  @IsDefined({ message: 'documentNameTemplate is required (a string, or null to clear it)' })
  @ValidateIf((_o, v) => v !== null)
  @IsString({ message: 'documentNameTemplate must be a string or null' })
  @MaxLength(500)
  documentNameTemplate!: string | null;
}
