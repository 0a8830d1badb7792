import { Controller, Get, Param, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ErrorCode, ErrorEnvelopeDto } from '@docrender/contracts';
import type { Response } from 'express';
import { resourceId, versionNumberOf } from '../listing/path-params';
import { PreviewImageService } from './preview-image.service';

/** The target of the signed preview-image link (spec 4.12 `url`): no bearer key, the signature is the credential. */
@ApiTags('templates')
@Controller('v1')
export class PreviewImageFileController {
  constructor(private readonly previews: PreviewImageService) {}

  @Get('templates/:templateId/versions/:versionNumber/preview-image/file')
  @ApiSecurity('signedLink')
  @ApiOperation({ summary: 'Download a preview image through its signed link', description: 'The `url` returned by the preview-image endpoint; valid for an hour.' })
  @ApiParam({ name: 'templateId', format: 'uuid' })
  @ApiParam({ name: 'versionNumber', type: 'integer', description: 'Version number.' })
  @ApiQuery({ name: 'expires', type: 'integer', description: 'Unix seconds after which the link stops working.' })
  @ApiQuery({ name: 'signature', type: String })
  @ApiResponse({ status: 200, description: 'The PNG.', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 401, type: ErrorEnvelopeDto, description: 'Unauthorized: the link is invalid, tampered with or expired.' })
  @ApiResponse({ status: 404, type: ErrorEnvelopeDto, description: 'ImageNotFound; OrganizationNotFound when the owning organisation was deleted.' })
  @ApiResponse({ status: 429, type: ErrorEnvelopeDto, description: "TooManyRequests: counted against the owning organisation's read limit." })
  async download(
    @Param('templateId') id: string,
    @Param('versionNumber') versionNumber: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const templateId = resourceId(id, ErrorCode.ImageNotFound, 'preview image of template');
    const image = await this.previews.openSignedImage(templateId, versionNumberOf(versionNumber, templateId, ErrorCode.ImageNotFound), expires, signature);
    res.set({ ...image.headers, 'Cache-Control': 'private, max-age=300' });
    return new StreamableFile(image.stream, { type: 'image/png', length: image.sizeBytes });
  }
}
