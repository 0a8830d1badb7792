import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Inject, NotFoundException, Post, Query, Res, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { IsBase64, IsString, MaxLength } from 'class-validator';
import type { WorkspaceSession } from '@docrender/persistence';
import { assetNameProblem, InvalidAssetError, listOrganisationAssets, organisationAssetKey, removeOrganisationAsset, storeOrganisationAsset } from '@docrender/organisation-resources';
import { BLOB_STORE, BlobNotFoundError, type BlobStore } from '@docrender/storage';
import { CurrentSession, Requires, WorkspaceAuthGuard } from '../auth/workspace-auth.guard';

/** An asset file (the admin CLI's `add-asset --name <name> --file <path>`, as JSON). */
export class UploadAssetDto {
  @ApiProperty({ description: 'the asset name templates use after asset:, e.g. brand/logo.png' }) @IsString() @MaxLength(200) name!: string;
  @ApiProperty({ description: 'the file (PNG, JPEG, GIF, WebP, AVIF, SVG or PDF), Base64' }) @IsBase64() contentBase64!: string;
}

/**
 * An asset's own answer is never a page of the workspace: an SVG opened by itself runs nothing (sandbox, no source
 * allowed) and the browser takes the stored type as given.
 */
const ASSET_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The most assets a page lists (bounded cost): a page reads the sizes and types of its own assets only (on S3 one
 * listing request and a stat per asset of the page), whatever the organisation holds.
 */
const MAX_TAKE = 200;

/** A valid asset name, or 400 (a name that cannot exist cannot be another organisation's either). */
function assetName(name: unknown): string {
  if (typeof name !== 'string') throw new BadRequestException('name is required');
  const problem = assetNameProblem(name);
  if (problem !== null) throw new BadRequestException(`the asset name ${problem}`);
  return name;
}

/**
 * Organisation assets (issue 35 item 4): the images templates use as `asset:<name>` and the PDFs they attach. Every
 * role lists and opens them; owners upload (through storeOrganisationAsset, the admin CLI's registration: the same
 * types, the same size limit, a name given again replaces the file) and delete. Assets live under the organisation's
 * own blob prefix, so another organisation's name is simply not found (404).
 */
@ApiTags('assets')
@UseGuards(WorkspaceAuthGuard)
@Controller('workspace/api/assets')
export class AssetsController {
  constructor(@Inject(BLOB_STORE) private readonly blobs: BlobStore) {}

  @Get()
  @ApiOperation({
    summary: "The organisation's assets by name, with their type and size, a page at a time (`next`: the page after this one's `after`, null on the last)",
    operationId: 'listAssets',
  })
  @ApiQuery({ name: 'after', required: false, description: 'the page starts after this asset name (the previous answer’s next)' })
  @ApiQuery({ name: 'take', required: false, description: `assets per page, 1 to ${MAX_TAKE} (default ${MAX_TAKE})` })
  async list(@CurrentSession() s: WorkspaceSession, @Query('after') after: unknown, @Query('take') take?: string) {
    const from = after === undefined || after === '' ? undefined : assetName(after);
    const count = Math.min(MAX_TAKE, Math.max(1, Number.parseInt(take ?? String(MAX_TAKE), 10) || MAX_TAKE));
    const page = await listOrganisationAssets(this.blobs, s.user.organisationId, { limit: count, after: from });
    return { items: page.items, after: from ?? null, take: count, next: page.truncated ? (page.items.at(-1)?.name ?? null) : null };
  }

  @Post()
  @Requires('owner')
  @ApiOperation({ summary: 'Upload an image or PDF as an asset (replaces one of the same name)', operationId: 'uploadAsset' })
  async upload(@CurrentSession() s: WorkspaceSession, @Body() body: UploadAssetDto) {
    try {
      const { organisationId: _organisationId, ...stored } = await storeOrganisationAsset(this.blobs, s.user.organisationId, body.name, Buffer.from(body.contentBase64, 'base64'));
      return stored;
    } catch (error) {
      if (error instanceof InvalidAssetError) throw new BadRequestException(error.message);
      throw error;
    }
  }

  @Get('content')
  @ApiQuery({ name: 'name', description: 'the asset name' })
  @ApiQuery({ name: 'download', required: false, description: '1: as an attachment (to save), else inline (to show)' })
  @ApiOperation({ summary: "An asset's file, with its stored type", operationId: 'getAssetContent' })
  async content(
    @CurrentSession() s: WorkspaceSession,
    @Query('name') name: unknown,
    @Query('download') download: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const key = organisationAssetKey(s.user.organisationId, assetName(name));
    const notFound = () => new NotFoundException(`asset ${String(name)} not found`);
    const info = await this.blobs.stat(key);
    if (info === null) throw notFound();
    try {
      const stream = await this.blobs.getStream(key);
      res.setHeader('Content-Security-Policy', ASSET_CONTENT_SECURITY_POLICY);
      const fileName = String(name).slice(String(name).lastIndexOf('/') + 1);
      return new StreamableFile(stream, { type: info.contentType, length: info.sizeBytes, disposition: `${download === '1' ? 'attachment' : 'inline'}; filename="${fileName}"` });
    } catch (error) {
      if (error instanceof BlobNotFoundError) throw notFound();
      throw error;
    }
  }

  @Delete()
  @Requires('owner')
  @HttpCode(204)
  @ApiQuery({ name: 'name', description: 'the asset name' })
  @ApiOperation({ summary: 'Delete an asset (templates that still use it get an UnresolvedImage issue)', operationId: 'deleteAsset' })
  async remove(@CurrentSession() s: WorkspaceSession, @Query('name') name: unknown): Promise<void> {
    if (!(await removeOrganisationAsset(this.blobs, s.user.organisationId, assetName(name)))) throw new NotFoundException(`asset ${String(name)} not found`);
  }
}
