import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';

/** Largest DSL, sample data or translations text the workspace stores (JSON text). */
export const MAX_TEXT = 2 * 1024 * 1024;

export class CreateTemplateDto {
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @ApiPropertyOptional({ description: 'key of an example (GET /workspace/api/examples) to copy; blank template when absent' })
  @IsOptional() @IsString() @MaxLength(100) example?: string;
}

export class DraftDto {
  @ApiProperty({ description: 'the DSL as JSON text' }) @IsString() @MaxLength(MAX_TEXT) templateJson!: string;
  @ApiProperty({ description: 'JSON text of { data, i18n }' }) @IsString() @MaxLength(MAX_TEXT) sampleData!: string;
  @ApiProperty({ type: String, nullable: true }) @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(MAX_TEXT) translations!: string | null;
  @ApiProperty({ type: String, nullable: true }) @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(1000) documentNameTemplate!: string | null;
}

export class NewDraftDto {
  @ApiProperty({ description: 'the version whose content the new draft starts from' }) @IsInt() @Min(1) fromVersion!: number;
}

export class PreviewDto {
  @ApiProperty() @IsString() @MaxLength(MAX_TEXT) templateJson!: string;
  @ApiProperty() @IsString() @MaxLength(MAX_TEXT) sampleData!: string;
  @ApiProperty({ type: String, nullable: true }) @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(MAX_TEXT) translations!: string | null;
  @ApiProperty({ type: String, nullable: true }) @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(1000) documentNameTemplate!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'a language of the translations' })
  @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(35) language!: string | null;
}
