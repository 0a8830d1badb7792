import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { RenderApiSettings } from '@docrender/config';
import { RENDER_API_SETTINGS } from './request-body.tokens';
import { JsonScanPool } from './json-scan.pool';
import {
  bindDocumentNameTemplateBody,
  bindEnqueueBody,
  bindRenderBody,
  bindStatelessRenderBody,
  bindValidateBody,
  DOCUMENTS_MEMBER,
  type DocumentNameTemplateBody,
  type EnqueueBody,
  type RenderBody,
  type StatelessRenderBody,
  type ValidateBody,
} from './render-body.binder';
import { readRequestBody } from './request-body.reader';

/** Cap of a body that carries no document (the document-name PATCH), counted after decompression. */
export const OPTIONS_BODY_MAX_BYTES = 1024 * 1024;

const SPLIT_DOCUMENTS = [DOCUMENTS_MEMBER];

/**
 * The one way in for every JSON request body of the gateway (there is no global body parser): raw bytes
 * (decompressed as a stream, counted, at most the route's cap and 50 MB per document), scanned on a worker thread
 * when large (syntax, per-document size and depth), bound to the route's shape. No document is parsed on the event
 * loop. Controllers call it after their guards, so an unauthenticated request's body is never read.
 */
@Injectable()
export class RenderBodyParser implements OnModuleDestroy {
  private readonly pool: JsonScanPool;

  constructor(@Inject(RENDER_API_SETTINGS) private readonly settings: RenderApiSettings) {
    this.pool = new JsonScanPool(settings.scanThreads);
  }

  async renderBody(req: IncomingMessage): Promise<RenderBody> {
    const raw = await readRequestBody(req, { maxBytes: this.settings.maxBodyBytes, splitKeys: SPLIT_DOCUMENTS });
    return bindRenderBody(raw, await this.pool.scan(raw, SPLIT_DOCUMENTS));
  }

  async validateBody(req: IncomingMessage): Promise<ValidateBody> {
    const raw = await readRequestBody(req, { maxBytes: this.settings.maxBodyBytes, splitKeys: SPLIT_DOCUMENTS });
    return bindValidateBody(raw, await this.pool.scan(raw, SPLIT_DOCUMENTS));
  }

  async statelessBody(req: IncomingMessage): Promise<StatelessRenderBody> {
    const raw = await readRequestBody(req, { maxBytes: this.settings.maxBodyBytes, splitKeys: [] });
    return bindStatelessRenderBody(raw, await this.pool.scan(raw, []));
  }

  async enqueueBody(req: IncomingMessage): Promise<EnqueueBody> {
    const raw = await readRequestBody(req, { maxBytes: this.settings.maxBodyBytes, splitKeys: SPLIT_DOCUMENTS });
    return bindEnqueueBody(raw, await this.pool.scan(raw, SPLIT_DOCUMENTS));
  }

  async documentNameTemplateBody(req: IncomingMessage): Promise<DocumentNameTemplateBody> {
    const raw = await readRequestBody(req, { maxBytes: OPTIONS_BODY_MAX_BYTES, splitKeys: [] });
    return bindDocumentNameTemplateBody(raw, await this.pool.scan(raw, []));
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
  }
}
