import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, ValidateIf } from 'class-validator';

export class CreateApiKeyDto {
  @ApiProperty({ enum: ['test', 'production'] }) @IsIn(['test', 'production']) environment!: 'test' | 'production';
  @ApiProperty({ type: String, nullable: true }) @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(200) label!: string | null;
}
