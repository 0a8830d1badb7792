import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import path from 'node:path';
import { RenderIssueType, renderIssue, type RenderIssue } from '@docrender/contracts';
import type { RenderApiSettings } from '@docrender/config';
import type { ValidateBody } from '../request-body/render-body.binder';
import { RenderBudget, type RenderTarget } from '@docrender/rendering';
import type { ValidationRequest } from './render-validation.worker';
import { RENDER_API_SETTINGS } from '../request-body/request-body.tokens';
import { sharedBytes, WorkerOutOfMemoryError, WorkerPool, WorkerTaskAbortedError } from '@docrender/platform';

/**
 * Spec 4.4 validation (validateDocuments) on worker threads: parsing and checking a 50 MB document takes seconds of
 * CPU, which must not hold up the event loop and every other request with it. A validation has the render budget
 * (spec 8, RENDER_BUDGET_MS) and RENDER_API_VALIDATION_HEAP_MB of heap: past either its thread is ended (and replaced)
 * and the answer is one batch-wide RenderTimeout issue saying the documents were not checked — an Error, so the batch
 * is not valid (docs/decisions/0027).
 */
@Injectable()
export class RenderValidationService implements OnModuleDestroy {
  private readonly workers: WorkerPool<ValidationRequest, RenderIssue[]>;

  constructor(
    @Inject(RENDER_API_SETTINGS) settings: RenderApiSettings,
    private readonly budget: RenderBudget,
  ) {
    this.workers = new WorkerPool({
      entry: path.join(__dirname, 'render-validation.worker'),
      name: 'render-validation',
      size: settings.validationThreads,
      resourceLimits: { maxOldGenerationSizeMb: settings.validationHeapMb },
    });
  }

  async validate(target: RenderTarget, body: ValidateBody): Promise<RenderIssue[]> {
    try {
      return await this.check(target, body);
    } catch (error) {
      if (error instanceof WorkerTaskAbortedError) {
        return [renderIssue(RenderIssueType.RenderTimeout, `Not validated: the checks ran past the ${this.budget.budgetMs / 1000} s render budget (RENDER_BUDGET_MS); the documents were not all checked.`)];
      }
      if (error instanceof WorkerOutOfMemoryError) {
        return [renderIssue(RenderIssueType.RenderTimeout, `Not validated: the checks needed more than the ${error.heapMb} MB a validation thread may use (RENDER_API_VALIDATION_HEAP_MB).`)];
      }
      throw error;
    }
  }

  private check(target: RenderTarget, body: ValidateBody): Promise<RenderIssue[]> {
    return this.workers.run(
      {
        target: {
          template: target.template,
          translations: target.translations,
          language: target.language,
          customFonts: target.customFonts,
          documentNameTemplate: target.documentNameTemplate,
          fallbackDocumentName: target.fallbackDocumentName,
        },
        raw: sharedBytes(body.raw),
        documents: body.documents,
      },
      { signal: AbortSignal.timeout(this.budget.budgetMs) },
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.workers.close();
  }
}
