import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';

const booleanQuery = ({ value }: { value: unknown }): unknown => (value === 'true' ? true : value === 'false' ? false : value);

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
