import { Controller, Get, Param, Req, Res, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ErrorCode, ErrorEnvelopeDto, RateLimitCategory, StoredDocumentDto, type ListQuery, type PagedResult } from '@docrender/contracts';
import type { Request, Response } from 'express';
import { ApiBearerKey } from '../auth/api-auth.decorator';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { callerOf, type AuthenticatedRequest, type Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { contentDisposition } from '@docrender/platform';
import { ApiListing, ListQueryParams } from '../listing/list-query.decorator';
import { pagedResultOf } from '../listing/paged-result.dto';
import { resourceId } from '../listing/path-params';
import { RateLimited } from '../rate-limit/api-rate-limit.decorator';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { DocumentFileAccessGuard, isSignedLinkRequest } from './document-file-access.guard';
import { DocumentsService } from './documents.service';

const StoredDocumentPageDto = pagedResultOf(StoredDocumentDto, 'StoredDocumentPageDto');
const documentId = (raw: string) => resourceId(raw, ErrorCode.DocumentNotFound, 'document');

/** Spec 4.13–4.15: stored documents. */
@ApiTags('documents')
@ApiExtraModels(StoredDocumentPageDto)
@Controller('v1/documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Get()
  @UseGuards(ApiKeyGuard, RateLimitGuard)
  @RateLimited(RateLimitCategory.Read)
  @ApiBearerKey()
  @ApiOperation({ summary: 'List documents', description: 'Only renders made with persist=true appear.' })
  @ApiListing('documents')
  @ApiOkResponse({ type: StoredDocumentPageDto })
  list(@CurrentCaller() caller: Caller, @ListQueryParams('documents') query: ListQuery): Promise<PagedResult<StoredDocumentDto>> {
    return this.documents.list(caller, query);
  }

  @Get(':id')
  @UseGuards(ApiKeyGuard, RateLimitGuard)
  @RateLimited(RateLimitCategory.Read)
  @ApiBearerKey()
  @ApiOperation({ summary: 'Get a document', description: 'Metadata only; viewUrl is a signed link valid 7 days, empty when the PDF was purged.' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: StoredDocumentDto })
  @ApiResponse({ status: 404, type: ErrorEnvelopeDto, description: 'DocumentNotFound: missing or owned by another organisation.' })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<StoredDocumentDto> {
    return this.documents.get(caller, documentId(id));
  }

  @Get(':id/file')
  @UseGuards(DocumentFileAccessGuard)
  @RateLimited(RateLimitCategory.Read)
  @ApiBearerAuth()
  @ApiSecurity('signedLink')
  @ApiOperation({
    summary: 'Download a document PDF',
    description: 'With the bearer key, or without it through the signed viewUrl (its `expires` and `signature` query parameters).',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiQuery({ name: 'expires', required: false, type: 'integer', description: 'From viewUrl: Unix seconds after which the link stops working.' })
  @ApiQuery({ name: 'signature', required: false, type: String, description: 'From viewUrl.' })
  @ApiResponse({
    status: 200,
    description: 'The PDF bytes, shown inline with the document name as filename.',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    headers: { 'Content-Disposition': { description: 'inline; filename="<documentName>.pdf"', schema: { type: 'string' } } },
  })
  @ApiResponse({
    status: 401,
    type: ErrorEnvelopeDto,
    description: 'Unauthorized: no valid key, or a signed link that is invalid, tampered with or expired. NotAuthenticated: the key has no organisation.',
  })
  @ApiResponse({
    status: 404,
    type: ErrorEnvelopeDto,
    description: 'DocumentNotFound: missing or owned by another organisation. OrganizationNotFound: a signed link whose organisation was deleted.',
  })
  @ApiResponse({ status: 410, type: ErrorEnvelopeDto, description: 'PdfDeleted: purged by retention; metadata remains.' })
  async download(@Param('id') id: string, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<StreamableFile> {
    const access = isSignedLinkRequest(req) ? { expires: req.query.expires, signature: req.query.signature } : { caller: callerOf(req as AuthenticatedRequest) };
    const file = await this.documents.openFile(documentId(id), access);
    res.set(file.headers);
    return new StreamableFile(file.stream, { type: 'application/pdf', length: file.sizeBytes, disposition: contentDisposition('inline', file.documentName) });
  }
}
