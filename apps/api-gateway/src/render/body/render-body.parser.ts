import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { RenderApiSettings } from '@docrender/config';
import { RENDER_API_SETTINGS } from '../render.tokens';
import { JsonScanPool } from './json-scan.pool';
import {
  bindRenderBody,
  bindStatelessRenderBody,
  bindValidateBody,
  DOCUMENTS_MEMBER,
  type RenderBody,
  type StatelessRenderBody,
  type ValidateBody,
} from './render-body.binder';
import { readRequestBody } from './request-body.reader';

/**
 * Reads and binds the body of a render route: raw bytes (decompressed, at most RENDER_API_MAX_BODY_BYTES), scanned
 * on a worker thread when large (syntax, per-document size and depth), bound to the route's shape. No document is
 * parsed on the event loop.
 */
@Injectable()
export class RenderBodyParser implements OnModuleDestroy {
  private readonly pool: JsonScanPool;

  constructor(@Inject(RENDER_API_SETTINGS) private readonly settings: RenderApiSettings) {
    this.pool = new JsonScanPool(settings.scanThreads);
  }

  async renderBody(req: IncomingMessage): Promise<RenderBody> {
    const raw = await readRequestBody(req, this.settings.maxBodyBytes);
    return bindRenderBody(raw, await this.pool.scan(raw, [DOCUMENTS_MEMBER]));
  }

  async validateBody(req: IncomingMessage): Promise<ValidateBody> {
    const raw = await readRequestBody(req, this.settings.maxBodyBytes);
    return bindValidateBody(raw, await this.pool.scan(raw, [DOCUMENTS_MEMBER]));
  }

  async statelessBody(req: IncomingMessage): Promise<StatelessRenderBody> {
    const raw = await readRequestBody(req, this.settings.maxBodyBytes);
    return bindStatelessRenderBody(raw, await this.pool.scan(raw, []));
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
  }
}
