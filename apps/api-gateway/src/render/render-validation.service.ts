import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import path from 'node:path';
import type { RenderIssue } from '@docrender/contracts';
import type { RenderApiSettings } from '@docrender/config';
import { toSharedBuffer } from './body/json-scan.pool';
import type { ValidateBody } from './body/render-body.binder';
import type { RenderTarget } from '@docrender/rendering';
import type { ValidationRequest } from './render-validation.worker';
import { RENDER_API_SETTINGS } from './render.tokens';
import { WorkerPool } from './workers/worker-pool';

/**
 * Spec 4.4 validation (validateDocuments) on worker threads: parsing and checking a 50 MB document takes seconds of
 * CPU, which must not hold up the event loop and every other request with it.
 */
@Injectable()
export class RenderValidationService implements OnModuleDestroy {
  private readonly workers: WorkerPool<ValidationRequest, RenderIssue[]>;

  constructor(@Inject(RENDER_API_SETTINGS) settings: RenderApiSettings) {
    this.workers = new WorkerPool(path.join(__dirname, 'render-validation.worker'), 'render-validation', settings.validationThreads);
  }

  validate(target: RenderTarget, body: ValidateBody): Promise<RenderIssue[]> {
    const shared = toSharedBuffer(body.raw);
    return this.workers.run({
      target: {
        template: target.template,
        translations: target.translations,
        language: target.language,
        customFonts: target.customFonts,
        documentNameTemplate: target.documentNameTemplate,
        fallbackDocumentName: target.fallbackDocumentName,
      },
      buffer: shared.buffer as SharedArrayBuffer,
      offset: shared.byteOffset,
      length: shared.byteLength,
      documents: body.documents,
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.workers.close();
  }
}
