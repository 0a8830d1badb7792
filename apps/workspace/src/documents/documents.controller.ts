import { BadRequestException, Controller, Get, GoneException, Inject, NotFoundException, Param, ParseUUIDPipe, Req, StreamableFile, UnprocessableEntityException, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { DomainError, ErrorCode, LISTINGS } from '@docrender/contracts';
import { DocumentListingQuery, organisationStats, OrganisationRepository, StoredDocumentRepository, UsageRepository, type StoredDocumentRecord, type WorkspaceSession } from '@docrender/persistence';
import { contentDisposition, parseListQuery } from '@docrender/platform';
import { BLOB_STORE, BlobNotFoundError, type BlobStore } from '@docrender/storage';
import { CurrentSession, WorkspaceAuthGuard } from '../auth/workspace-auth.guard';

const documentJson = (d: StoredDocumentRecord) => ({
  id: d.id,
  documentName: d.documentName,
  templateId: d.templateId,
  versionNumber: d.versionNumber,
  environment: d.environment,
  documentType: d.documentType,
  language: d.language,
  fileSizeBytes: d.fileSizeBytes,
  pageCount: d.pageCount,
  renderedAt: d.renderedAt.toISOString(),
  isPdfDeleted: d.isPdfDeleted,
});

/** The query string as sent: the listing's indexed filter names (`filters[0].field`) must not depend on Express's parser. */
function searchParamsOf(request: Request): URLSearchParams {
  const url = request.originalUrl ?? request.url;
  const start = url.indexOf('?');
  return new URLSearchParams(start < 0 ? '' : url.slice(start + 1));
}

/**
 * Usage and stored documents (issue 35 item 4): the organisation's credit for the period — the figures of spec 2.12's
 * `GET /v1/organisation/stats`, from the same organisationStats — and its stored documents with the API's listing
 * rules (spec 4.1 / 4.13: the same parser and the same listing query), each PDF downloadable through the workspace.
 * Every role reads; another organisation's document answers 404.
 */
@ApiTags('usage and documents')
@UseGuards(WorkspaceAuthGuard)
@Controller('workspace/api')
export class DocumentsController {
  constructor(
    private readonly organisations: OrganisationRepository,
    private readonly usage: UsageRepository,
    private readonly listing: DocumentListingQuery,
    private readonly documents: StoredDocumentRepository,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  @Get('usage')
  @ApiOperation({ summary: "The organisation's billing period, allowance and use (spec 2.12)", operationId: 'getUsage' })
  async stats(@CurrentSession() s: WorkspaceSession) {
    const stats = await organisationStats(this.organisations, this.usage, s.user.organisationId);
    if (stats === null) throw new NotFoundException('the organisation no longer exists');
    return stats;
  }

  @Get('documents')
  @ApiOperation({ summary: 'Stored documents with the listing rules of GET /v1/documents (skip, take, sortBy, sortDirection, filters)', operationId: 'listDocuments' })
  async list(@CurrentSession() s: WorkspaceSession, @Req() req: Request) {
    let query;
    try {
      query = parseListQuery(searchParamsOf(req), LISTINGS.documents, 'documents');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw error.code === ErrorCode.BindingError ? new UnprocessableEntityException(error.message) : new BadRequestException(error.message);
    }
    const page = await this.listing.list(s.user.organisationId, query);
    return { items: page.items.map(documentJson), total: page.total, skip: query.skip, take: query.take };
  }

  @Get('documents/:documentId/pdf')
  @ApiOperation({ summary: "A stored document's PDF (410 once retention purged it)", operationId: 'downloadDocument' })
  async pdf(@CurrentSession() s: WorkspaceSession, @Param('documentId', ParseUUIDPipe) documentId: string): Promise<StreamableFile> {
    const document = await this.documents.findById(s.user.organisationId, documentId);
    if (document === null) throw new NotFoundException(`document ${documentId} not found`);
    const purged = () => new GoneException(`the PDF of document ${documentId} was purged by the retention policy`);
    if (document.isPdfDeleted) throw purged();
    try {
      const info = await this.blobs.stat(document.pdfBlobKey);
      if (info === null) throw purged();
      return new StreamableFile(await this.blobs.getStream(document.pdfBlobKey), { type: 'application/pdf', length: info.sizeBytes, disposition: contentDisposition('attachment', document.documentName) });
    } catch (error) {
      if (error instanceof BlobNotFoundError) throw purged();
      throw error;
    }
  }
}
