import { Controller, Get, Param, Patch, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  ErrorCode,
  ErrorEnvelopeDto,
  PreviewImageDto,
  RateLimitCategory,
  TemplateDto,
  TemplateVersionDto,
  TemplateVersionSummaryDto,
  UpdateDocumentNameTemplateDto,
  type ListQuery,
  type PagedResult,
} from '@docrender/contracts';
import { ApiBearerKey } from '../auth/api-auth.decorator';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { ApiListing, ListQueryParams } from '../listing/list-query.decorator';
import { pagedResultOf } from '../listing/paged-result.dto';
import { resourceId, templateIdOf, versionNumberOf } from '../listing/path-params';
import { RateLimited } from '../rate-limit/api-rate-limit.decorator';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { RenderBodyParser } from '../request-body/render-body.parser';
import { PreviewImageService } from './preview-image.service';
import { LATEST, TemplatesService } from './templates.service';

const TemplatePageDto = pagedResultOf(TemplateDto, 'TemplatePageDto');
const TemplateVersionPageDto = pagedResultOf(TemplateVersionSummaryDto, 'TemplateVersionPageDto');

const notFound = (description: string) => ApiResponse({ status: 404, type: ErrorEnvelopeDto, description });

/** Spec 4.7–4.12: templates, versions, the document-name template, preview images. */
@ApiTags('templates')
@ApiBearerKey()
@ApiExtraModels(TemplatePageDto, TemplateVersionPageDto)
@UseGuards(ApiKeyGuard, RateLimitGuard)
@RateLimited(RateLimitCategory.Read)
@Controller('v1')
export class TemplatesController {
  constructor(
    private readonly templates: TemplatesService,
    private readonly previews: PreviewImageService,
    private readonly bodies: RenderBodyParser,
  ) {}

  @Get('templates')
  @ApiOperation({ summary: 'List templates' })
  @ApiListing('templates')
  @ApiOkResponse({ type: TemplatePageDto })
  list(@CurrentCaller() caller: Caller, @ListQueryParams('templates') query: ListQuery): Promise<PagedResult<TemplateDto>> {
    return this.templates.list(caller, query);
  }

  @Get('projects/:projectId/templates')
  @ApiOperation({ summary: "List a project's templates" })
  @ApiParam({ name: 'projectId', format: 'uuid' })
  @ApiListing('templates')
  @ApiOkResponse({ type: TemplatePageDto })
  @notFound('EntityNotFound: no such project in the organisation.')
  listOfProject(
    @CurrentCaller() caller: Caller,
    @Param('projectId') projectId: string,
    @ListQueryParams('templates') query: ListQuery,
  ): Promise<PagedResult<TemplateDto>> {
    return this.templates.listOfProject(caller, resourceId(projectId, ErrorCode.EntityNotFound, 'project'), query);
  }

  @Get('templates/:id')
  @ApiOperation({ summary: 'Get a template' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: TemplateDto })
  @notFound('TemplateNotFound: missing or owned by another organisation.')
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<TemplateDto> {
    return this.templates.get(caller, templateIdOf(id));
  }

  @Get('templates/:templateId/versions')
  @ApiOperation({ summary: "List a template's versions" })
  @ApiParam({ name: 'templateId', format: 'uuid' })
  @ApiListing('templateVersions')
  @ApiOkResponse({ type: TemplateVersionPageDto })
  @notFound('TemplateNotFound.')
  listVersions(
    @CurrentCaller() caller: Caller,
    @Param('templateId') id: string,
    @ListQueryParams('templateVersions') query: ListQuery,
  ): Promise<PagedResult<TemplateVersionSummaryDto>> {
    return this.templates.listVersions(caller, templateIdOf(id), query);
  }

  @Get('templates/:templateId/versions/latest')
  @ApiOperation({ summary: 'Get the latest published version' })
  @ApiParam({ name: 'templateId', format: 'uuid' })
  @ApiOkResponse({ type: TemplateVersionDto })
  @notFound('TemplateNotFound, or NoPublishedVersion when nothing is published.')
  latestVersion(@CurrentCaller() caller: Caller, @Param('templateId') id: string): Promise<TemplateVersionDto> {
    return this.templates.getVersion(caller, templateIdOf(id), LATEST);
  }

  @Get('templates/:templateId/versions/:versionNumber')
  @ApiOperation({ summary: 'Get a version' })
  @ApiParam({ name: 'templateId', format: 'uuid' })
  @ApiParam({ name: 'versionNumber', type: 'integer', description: 'Version number.' })
  @ApiOkResponse({ type: TemplateVersionDto })
  @notFound('TemplateNotFound or VersionNotFound.')
  version(@CurrentCaller() caller: Caller, @Param('templateId') id: string, @Param('versionNumber') versionNumber: string): Promise<TemplateVersionDto> {
    const template = templateIdOf(id);
    return this.templates.getVersion(caller, template, versionNumberOf(versionNumber, template));
  }

  @Patch('templates/:templateId/versions/:versionNumber/document-name-template')
  @RateLimited(RateLimitCategory.Write)
  @ApiOperation({ summary: "Update a version's document-name template", description: 'The only template write; counts against the write rate limit.' })
  @ApiParam({ name: 'templateId', format: 'uuid' })
  @ApiParam({ name: 'versionNumber', type: 'integer', description: 'Version number.' })
  @ApiBody({ type: UpdateDocumentNameTemplateDto })
  @ApiOkResponse({ type: TemplateVersionDto })
  @notFound('TemplateNotFound or VersionNotFound.')
  @ApiResponse({ status: 413, type: ErrorEnvelopeDto, description: 'PayloadTooLarge: the body is over 1 MiB (counted after decompression).' })
  @ApiResponse({ status: 422, type: ErrorEnvelopeDto, description: 'BindingError: the body is not `{ "documentNameTemplate": string | null }` (at most 500 characters, no NUL, no lone surrogate), or the pattern has bindings a render could not use (syntax, an unknown function).' })
  async updateDocumentNameTemplate(
    @CurrentCaller() caller: Caller,
    @Param('templateId') id: string,
    @Param('versionNumber') versionNumber: string,
    @Req() req: Request,
  ): Promise<TemplateVersionDto> {
    const template = templateIdOf(id);
    const version = versionNumberOf(versionNumber, template);
    const body = await this.bodies.documentNameTemplateBody(req);
    return this.templates.updateDocumentNameTemplate(caller, template, version, body.documentNameTemplate);
  }

  @Get('templates/:templateId/versions/:versionNumber/preview-image')
  @ApiOperation({
    summary: 'Preview image of a version',
    description: 'A time-limited (1 hour) signed link to a PNG of the first page with the sample data, made on the first request.',
  })
  @ApiParam({ name: 'templateId', format: 'uuid' })
  @ApiParam({ name: 'versionNumber', type: 'integer', description: 'Version number.' })
  @ApiOkResponse({ type: PreviewImageDto })
  @notFound('TemplateNotFound, VersionNotFound, or ImageNotFound when no preview can be produced (never a null url).')
  @ApiResponse({ status: 500, type: ErrorEnvelopeDto, description: 'ExternalServiceError: the render service did not answer in time; retry.' })
  previewImage(@CurrentCaller() caller: Caller, @Param('templateId') id: string, @Param('versionNumber') versionNumber: string): Promise<PreviewImageDto> {
    const template = templateIdOf(id);
    return this.previews.previewUrl(caller, template, versionNumberOf(versionNumber, template));
  }
}
