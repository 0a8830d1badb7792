import { renderBudgetSettings } from '@docrender/config';
import { DynamicModule, Module } from '@nestjs/common';
import { blobStoreCheck, buildVersion, MetaController, messageBusCheck, MetricsController, READINESS_CHECKS, ReadinessCheck, type ServiceContext } from '@docrender/platform';
import { BrowserPool } from './chromium/browser-pool';
import { locateChromium } from './chromium/chromium-executable';
import { BatchingDocumentPrinter } from './chromium/batching-document-printer';
import { ChromiumDocumentPrinter, DOCUMENT_PRINTER, DocumentPrinter } from './chromium/document-printer';
import { DocumentCompiler } from './compile/document-compiler';
import { DocumentSources } from './document/document-sources';
import { FontFileCache } from './document/font-file.cache';
import { ImageResolver } from './document/image-resolver';
import { RenderDocumentHandler } from './document/render-document.handler';
import type { RenderHandlerDeps, RenderHandlerOptions } from './document/render-handler.deps';
import { RenderPreviewHandler } from './document/render-preview.handler';
import { RenderConsumer } from './render.consumer';
import { RENDER_SETTINGS, renderServiceSettings } from './render-service.settings';

/** The readiness check of the Chromium pool: a browser is ready and answers. */
export const chromiumCheck = (pool: BrowserPool): ReadinessCheck => ({ name: 'chromium', check: () => pool.ping() });

/**
 * The render service's root module, on the bus and blob store the shared bootstrap provides (no database). It owns
 * the Chromium pool (started before the app takes work, closed on shutdown) and the compile threads (DocumentCompiler,
 * likewise), and consumes render.document /
 * render.preview; it serves the probes GET /v1/meta/status (Chromium + message bus + blob storage),
 * GET /v1/meta/version and the Prometheus GET /metrics.
 */
@Module({})
export class RenderServiceModule {
  static register({ infrastructure, logger, settings: processSettings }: ServiceContext<false>): DynamicModule {
    const settings = processSettings.get(renderServiceSettings);
    const { bus, blobStore } = infrastructure;
    const producer = `docrender render-service ${buildVersion()}`;
    const handlerOptions: RenderHandlerOptions = { budgetMs: processSettings.get(renderBudgetSettings).renderBudgetMs, allowHttpImages: settings.allowHttp, producer };
    const handlerDeps = (printer: DocumentPrinter, sources: DocumentSources, compiler: DocumentCompiler): RenderHandlerDeps => ({
      printer,
      blobStore,
      sources,
      compiler,
      options: handlerOptions,
      logger,
    });
    return {
      module: RenderServiceModule,
      controllers: [MetaController, MetricsController],
      providers: [
        { provide: RENDER_SETTINGS, useValue: settings },
        {
          provide: BrowserPool,
          useFactory: async () =>
            BrowserPool.start({
              executablePath: await locateChromium(settings.executablePath),
              browsers: settings.browsers,
              pagesPerBrowser: settings.pagesPerBrowser,
              maxRendersPerBrowser: settings.maxRendersPerBrowser,
              freshDocumentEvery: settings.freshDocumentEvery,
              checkIntervalMs: settings.browserCheckIntervalMs,
              answerTimeoutMs: settings.browserAnswerTimeoutMs,
              creator: producer,
              logger,
            }),
        },
        {
          provide: DOCUMENT_PRINTER,
          useFactory: (pool: BrowserPool): DocumentPrinter => {
            const printer = new ChromiumDocumentPrinter(pool, { producer, logger });
            return settings.batchPrintMax > 1 ? new BatchingDocumentPrinter(printer, pool, { maxDocuments: settings.batchPrintMax, maxPrintedChars: Math.round(settings.maxPrintedHtmlMb * 1_000_000), logger }) : printer;
          },
          inject: [BrowserPool],
        },
        {
          provide: DocumentSources,
          useFactory: () =>
            new DocumentSources(
              blobStore,
              new ImageResolver(
                blobStore,
                { policy: { allowHttp: settings.allowHttp, allowPrivate: settings.allowPrivate }, fetchTimeoutMs: settings.imageFetchTimeoutMs, maxBytes: settings.imageMaxBytes },
                logger,
              ),
              new FontFileCache(blobStore, settings.fontCacheMaxBytes),
              logger,
            ),
        },
        // closed by RenderConsumer once the renders in hand are finished
        { provide: DocumentCompiler, useFactory: () => DocumentCompiler.onThreads({ threads: settings.compileThreads, heapMb: settings.compileHeapMb, maxPrintedChars: Math.round(settings.maxPrintedHtmlMb * 1_000_000) }, logger) },
        {
          provide: RenderDocumentHandler,
          useFactory: (printer: DocumentPrinter, sources: DocumentSources, compiler: DocumentCompiler) =>
            new RenderDocumentHandler(handlerDeps(printer, sources, compiler)),
          inject: [DOCUMENT_PRINTER, DocumentSources, DocumentCompiler],
        },
        {
          provide: RenderPreviewHandler,
          useFactory: (printer: DocumentPrinter, sources: DocumentSources, compiler: DocumentCompiler) =>
            new RenderPreviewHandler(handlerDeps(printer, sources, compiler)),
          inject: [DOCUMENT_PRINTER, DocumentSources, DocumentCompiler],
        },
        RenderConsumer,
        {
          provide: READINESS_CHECKS,
          useFactory: (pool: BrowserPool): ReadinessCheck[] => [chromiumCheck(pool), messageBusCheck(bus), blobStoreCheck(blobStore)],
          inject: [BrowserPool],
        },
      ],
      exports: [BrowserPool],
    };
  }
}
