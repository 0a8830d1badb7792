import { BadRequestException, Body, Controller, Get, Inject, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsBase64, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { FONT_FORMATS, fontFormatOf, matchesFontFormat, registerFontFamily, type FontFamilyRecord, type FontStyle } from '@docrender/organisation-resources';
import { FontRepository, TemplateVersionRepository, type WorkspaceSession } from '@docrender/persistence';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import { BUILTIN_FONT_FAMILIES, builtinVariants, fontFamilyKey, fontFamilyUsage } from '@docrender/template-dsl';
import { CurrentSession, Requires, WorkspaceAuthGuard } from '../auth/workspace-auth.guard';

/** One font file for a family (the admin CLI's `add-font --file <weight>:<style>:<path>`, as JSON). */
export class UploadFontDto {
  @ApiProperty() @IsString() @Matches(/^[\p{L}\p{N} _-]{1,100}$/u, { message: 'family may hold letters, digits, spaces, _ and - (at most 100)' }) family!: string;
  @ApiProperty() @IsInt() @Min(1) @Max(1000) weight!: number;
  @ApiProperty({ enum: ['normal', 'italic'] }) @IsIn(['normal', 'italic']) style!: FontStyle;
  @ApiProperty({ description: 'the file name; its extension names the format (woff2, woff, ttf, otf)' }) @IsString() @MaxLength(200) fileName!: string;
  @ApiProperty({ description: 'the file, Base64' }) @IsBase64() contentBase64!: string;
}

const variantsOf = (f: FontFamilyRecord) => f.files.map((file) => ({ weight: file.weight, style: file.style, format: file.format, fileSizeBytes: file.fileSizeBytes }));

/**
 * Fonts (issue 35 item 4; spec 4.18's fonts area): the built-in families and the organisation's custom ones with
 * their variants; owners upload a custom family's files through the same registration as the admin CLI
 * (registerFontFamily: blobs first, rows after; a variant given again replaces the old file). Every role reads. Each
 * family names the templates, and their versions, whose DSL uses it (fontFamilyUsage over every stored version).
 */
@ApiTags('fonts')
@UseGuards(WorkspaceAuthGuard)
@Controller('workspace/api/fonts')
export class FontsController {
  constructor(
    private readonly fonts: FontRepository,
    private readonly versions: TemplateVersionRepository,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The built-in font families and the organisation\'s custom ones, with their variants and the templates (versions) using each', operationId: 'listFonts' })
  async list(@CurrentSession() s: WorkspaceSession) {
    const [families, versions] = await Promise.all([this.fonts.listLiveFamilies(s.user.organisationId), this.versions.listDslByOrganisation(s.user.organisationId)]);
    const usage = fontFamilyUsage(versions);
    const usedBy = (family: string) => usage.get(fontFamilyKey(family)) ?? [];
    const builtin = BUILTIN_FONT_FAMILIES.map((family) => {
      const { weights, styles } = builtinVariants(family);
      return { family, source: 'builtin', variants: weights.flatMap((weight) => styles.map((style) => ({ weight, style, format: null, fileSizeBytes: null }))), usedBy: usedBy(family) };
    });
    const custom = families.map((f) => ({ family: f.family, source: 'custom', variants: variantsOf(f), usedBy: usedBy(f.family) }));
    return { items: [...builtin, ...custom] };
  }

  @Post()
  @Requires('owner')
  @ApiOperation({ summary: 'Upload a font file for a custom family (a new family, or a variant of one)', operationId: 'uploadFont' })
  async upload(@CurrentSession() s: WorkspaceSession, @Body() body: UploadFontDto) {
    const format = fontFormatOf(body.fileName);
    if (format === null) throw new BadRequestException(`${body.fileName}: the extension must be one of ${FONT_FORMATS.join(', ')}`);
    if ((BUILTIN_FONT_FAMILIES as readonly string[]).some((b) => b.toLowerCase() === body.family.trim().toLowerCase())) {
      throw new BadRequestException(`${body.family} is a built-in family; choose another name`);
    }
    const bytes = Buffer.from(body.contentBase64, 'base64');
    if (!matchesFontFormat(bytes, format)) throw new BadRequestException(`${body.fileName} is not a ${format} font file`);
    const family = await registerFontFamily(this.fonts, this.blobs, { organisationId: s.user.organisationId, family: body.family.trim(), files: [{ weight: body.weight, style: body.style, format, bytes }] });
    return { family: family.family, source: 'custom', variants: variantsOf(family) };
  }
}
