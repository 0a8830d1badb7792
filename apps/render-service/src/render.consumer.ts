import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { MessageName } from '@docrender/contracts';
import { MESSAGE_BUS, MessageBus, Subscription } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import { LOGGER } from '@docrender/platform';
import { BrowserPool } from './chromium/browser-pool';
import { DocumentCompiler } from './compile/document-compiler';
import { RenderDocumentHandler } from './document/render-document.handler';
import { RenderPreviewHandler } from './document/render-preview.handler';
import { RENDER_SETTINGS, RenderServiceSettings } from './render-service.settings';

/**
 * Messages one instance holds: its Chromium capacity plus half again. A document spends part of its time outside
 * Chromium (data, compile, page count, storing the PDF, the reply); the extra messages wait in the pool's queue
 * (within their deadlines) so that every page has the next document ready the moment it is free.
 */
export function renderPrefetch(capacity: number): number {
  return capacity + Math.ceil(capacity / 2);
}

const settle = (ms: number): Promise<'timeout'> => new Promise((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/**
 * Takes render.document and render.preview messages as a competing consumer: every render-service instance shares
 * the queues, each holding about as many unacknowledged documents as its Chromium pool renders at once
 * (renderPrefetch). A message is
 * acknowledged once its reply is sent. A document whose delivery is abandoned (the instance's RabbitMQ channel or
 * connection closed: the message is already back in the queue for the next delivery) is neither stored nor counted,
 * so a connection hiccup does not render it twice; on shutdown the instance stops taking work, finishes what it holds for up
 * to RENDER_SHUTDOWN_GRACE_MS, then closes the browsers and the compile threads: renders cut short throw, so their messages return to the
 * queue for another instance.
 */
@Injectable()
export class RenderConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly subscriptions: Subscription[] = [];

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly pool: BrowserPool,
    private readonly compiler: DocumentCompiler,
    private readonly documents: RenderDocumentHandler,
    private readonly previews: RenderPreviewHandler,
    @Inject(RENDER_SETTINGS) private readonly settings: RenderServiceSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscriptions.push(
      await this.bus.consume(MessageName.RenderDocument, (command, { abandoned }) => this.documents.handle(command, abandoned), {
        prefetch: renderPrefetch(this.pool.capacity * this.settings.batchPrintMax),
      }),
      await this.bus.consume(MessageName.RenderPreview, (command, { abandoned }) => this.previews.handle(command, abandoned), { prefetch: 1 }),
    );
    this.logger.info('taking render work', {
      concurrentRenders: this.pool.capacity,
      batchPrintMax: this.settings.batchPrintMax,
      prefetch: renderPrefetch(this.pool.capacity * this.settings.batchPrintMax),
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.logger.info('stopping: no new render work; finishing the renders in hand', { graceMs: this.settings.shutdownGraceMs });
    const cancelled = Promise.all(this.subscriptions.splice(0).map((s) => s.cancel()));
    cancelled.catch((error: unknown) => this.logger.error('stopping the consumers failed', { err: error }));
    if ((await Promise.race([cancelled, settle(this.settings.shutdownGraceMs)])) === 'timeout') {
      this.logger.warn('renders still running after the grace period: closing the browsers, their messages go back to the queue');
    }
    await Promise.all([this.pool.close(), this.compiler.close()]);
    await Promise.race([cancelled.catch(() => undefined), settle(10_000)]);
  }
}
