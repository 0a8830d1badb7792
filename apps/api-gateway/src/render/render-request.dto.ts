import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUUID, Length } from 'class-validator';

const booleanQuery = ({ value }: { value: unknown }): unknown => (value === 'true' ? true : value === 'false' ? false : value);

/** Path of the render and validate endpoints for the latest published version (spec 4.2, 4.4). */
export class TemplatePathDto {
  @ApiProperty({ format: 'uuid', description: 'Template id.' })
  @IsUUID('all', { message: 'must be a UUID' })
  templateId!: string;
}

/** Path of the render and validate endpoints for a specific version (a draft may be addressed this way). */
export class TemplateVersionPathDto extends TemplatePathDto {
  @ApiProperty({ type: 'integer', description: 'Version number.' })
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  version!: number;
}

/** Query of spec 4.2. */
export class RenderQueryDto {
  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: 'Store the rendered document. When false, id and viewUrl are null and the PDF is returned inline in documentBase64.',
  })
  @IsOptional()
  @Transform(booleanQuery)
  @IsBoolean({ message: 'must be true or false' })
  persist?: boolean;

  @ApiPropertyOptional({ description: 'Language variant of a multilingual template; a value the version does not define is 400 ValidationError.' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Length(1, 64, { message: 'must be 1 to 64 characters' })
  language?: string;
}

/** Query of spec 4.3. */
export class StatelessRenderQueryDto {
  @ApiPropertyOptional({ description: 'Language variant; meaningful with translations in the body.' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Length(1, 64, { message: 'must be 1 to 64 characters' })
  language?: string;
}
