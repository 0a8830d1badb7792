import { ApiProperty } from '@nestjs/swagger';

export enum FontSource {
  Builtin = 'builtin',
  Custom = 'custom',
}

export class FontVariantDto {
  @ApiProperty({ example: 400 }) weight!: number;
  @ApiProperty({ enum: ['normal', 'italic'] }) style!: 'normal' | 'italic';
}

/** Spec 4.18 leaves the font record open ("fields not shown"); this is our record (docs/api.md). */
export class FontFamilyDto {
  @ApiProperty({ description: 'The value to use as fontFamily in a template.', example: 'Inter' }) family!: string;
  @ApiProperty({ enum: FontSource }) source!: FontSource;
  @ApiProperty({ type: [FontVariantDto] }) variants!: FontVariantDto[];
}
