import type { Logger } from '@docrender/observability';
import { counter, gauge } from '@docrender/observability';
import { BrowserCrashedError, BrowserPoolClosedError } from './browser-crashed.error';
import { chromiumFlags } from './chromium-flags';
import { assertChromiumSupported } from './chromium-version';
import { PageIsolation, PageTask, PooledBrowser, BrowserLaunchConfig, BrowserEvents } from './pooled-browser';
import { RefusingProxy } from './refusing-proxy';
import { RenderTimeoutError } from './render-timeout.error';

export type BrowserPoolOptions = {
  executablePath: string;
  browsers: number;
  pagesPerBrowser: number;
  /** A browser is replaced after this many renders. */
  maxRendersPerBrowser: number;
  /** A reused page loads a new, empty document after this many renders. */
  freshDocumentEvery: number;
  /** Every browser is asked to answer this often; one that does not answer in `answerTimeoutMs` is killed. */
  checkIntervalMs: number;
  answerTimeoutMs: number;
  /** Written as the PDF /Creator (through the browser's user agent). */
  creator: string;
  logger: Logger;
};

/** A render for the pool: its deadline counts the wait for a page too (the render fails with RenderTimeoutError past it). */
export type PoolRender<T> = PageTask<T>;

type QueuedRender = {
  render: PoolRender<unknown>;
  attempts: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Fires the RenderTimeout of a render still waiting for a page. */
  waitTimer: NodeJS.Timeout | undefined;
};

const CLOSE_TIMEOUT_MS = 5_000;
/** Pause before a crashed render is retried, so the crash has reached every page it affects. */
const CRASH_RETRY_DELAY_MS = 250;
const RELAUNCH_BACKOFF_MS = [250, 1_000, 2_000, 5_000, 10_000];

const restarts = counter('docrender_render_browser_restarts_total', 'Chromium browsers replaced, by reason.', ['reason']);
const retriedRenders = counter('docrender_render_crash_retries_total', 'Renders retried because their browser or page crashed.');
const busyPages = gauge('docrender_render_pages_busy', 'Renders running in the Chromium pool.');
const waitingRenders = gauge('docrender_render_waiting', 'Renders waiting for a free page.');

/**
 * A supervised, bounded pool of Chromium browsers (docs/decisions/0003-chromium-pool.md):
 * - `browsers × pagesPerBrowser` renders at once, the rest wait in FIFO order (each within its deadline);
 * - one long print at a time (PageTask.longPrint): a long print waits while another runs and shorter renders pass
 *   it, so the memory Chromium takes while printing is bounded by one longest document, not by the page count;
 * - a browser is replaced after `maxRendersPerBrowser` renders (it keeps rendering until its replacement is ready,
 *   then drains and closes, so a restart costs no capacity), when it crashes, or when it stops answering the
 *   periodic check;
 * - a render caught in a crash is retried once on a healthy browser, so callers do not see the crash;
 * - a render past its deadline fails with RenderTimeoutError and its page is closed;
 * - close() kills nothing it did not start and leaves no Chromium process behind.
 */
export class BrowserPool {
  private readonly browsers = new Set<PooledBrowser>();
  private launching = 0;
  private readonly queue: QueuedRender[] = [];
  private running = 0;
  private longRunning = false;
  private closed = false;
  private watchdog: NodeJS.Timeout | undefined;
  private readonly launchConfig: BrowserLaunchConfig;
  private readonly events: BrowserEvents;
  private readonly logger: Logger;

  private constructor(private readonly options: BrowserPoolOptions, private readonly proxy: RefusingProxy) {
    this.logger = options.logger.child({ component: 'browser-pool' });
    this.launchConfig = {
      executablePath: options.executablePath,
      args: chromiumFlags(proxy.port, options.creator),
      pagesPerBrowser: options.pagesPerBrowser,
      maxRenders: options.maxRendersPerBrowser,
      freshDocumentEvery: options.freshDocumentEvery,
      closeTimeoutMs: CLOSE_TIMEOUT_MS,
      logger: this.logger,
    };
    this.events = {
      onCapacity: () => this.pump(),
      onRenderLimit: () => {
        restarts.inc({ reason: 'render-limit' });
        this.ensureBrowsers();
      },
      onGone: (browser, reason) => this.browserGone(browser, reason),
    };
  }

  /** Starts every browser; rejects (after cleaning up) when the first ones cannot start. */
  static async start(options: BrowserPoolOptions): Promise<BrowserPool> {
    const proxy = await RefusingProxy.start();
    const pool = new BrowserPool(options, proxy);
    try {
      const started = await Promise.all(
        Array.from({ length: options.browsers }, () => PooledBrowser.launch(pool.launchConfig, pool.events)),
      );
      for (const browser of started) pool.browsers.add(browser);
      // The browser against the Chrome puppeteer is made for: refused when older, a warning when newer (issue 36 item 4).
      if (started[0] !== undefined) assertChromiumSupported(await started[0].version(), pool.logger);
    } catch (error) {
      await pool.close();
      throw error;
    }
    pool.watchdog = setInterval(() => pool.checkBrowsers(), options.checkIntervalMs);
    pool.watchdog.unref();
    return pool;
  }

  /** Renders the pool runs at once. */
  get capacity(): number {
    return this.options.browsers * this.options.pagesPerBrowser;
  }

  /** Process ids of the live browsers (each the leader of its Chromium process group). */
  get browserProcessIds(): number[] {
    return [...this.browsers].flatMap((b) => (b.isGone || b.pid === undefined ? [] : [b.pid]));
  }

  run<T>(render: PoolRender<T>): Promise<T> {
    if (this.closed) return Promise.reject(new BrowserPoolClosedError());
    return new Promise<T>((resolve, reject) => {
      const queued: QueuedRender = {
        render: render as PoolRender<unknown>,
        attempts: 0,
        resolve: (value) => resolve(value as T),
        reject,
        waitTimer: undefined,
      };
      this.enqueue(queued, 'back');
      this.pump();
    });
  }

  /**
   * Resolves when a browser is ready and answers; the readiness probe's check. A browser the watchdog heard from
   * within its last round (checkIntervalMs + answerTimeoutMs; one that stops answering is killed) counts without a new
   * call: a browser busy taking a large document in answers DevTools late, and the probe must not wait on it (issue 31).
   */
  async ping(): Promise<void> {
    if (this.closed) throw new BrowserPoolClosedError();
    const ready = [...this.browsers].filter((b) => b.isReady || b.isRetiring);
    if (ready.length === 0) throw new Error('no Chromium browser is ready');
    if (ready.some((b) => b.sinceLastAnswerMs <= this.options.checkIntervalMs + this.options.answerTimeoutMs)) return;
    await Promise.any(ready.map((b) => b.ping(this.options.answerTimeoutMs))).catch(() => {
      throw new Error(`no Chromium browser answered within ${this.options.answerTimeoutMs} ms`);
    });
  }

  /** Fails waiting renders, closes every browser (renders still running fail) and the proxy. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watchdog);
    for (const queued of this.queue.splice(0)) {
      clearTimeout(queued.waitTimer);
      queued.reject(new BrowserPoolClosedError());
    }
    waitingRenders.set(0);
    await Promise.all([...this.browsers].map((b) => b.close()));
    // launches in progress add their browser after this point and close it themselves (see launchReplacement)
    await this.proxy.close();
  }

  private enqueue(queued: QueuedRender, end: 'front' | 'back'): void {
    const waitMs = queued.render.deadline - Date.now();
    if (waitMs <= 0) {
      queued.reject(new RenderTimeoutError(queued.render.budgetMs));
      return;
    }
    queued.waitTimer = setTimeout(() => {
      const index = this.queue.indexOf(queued);
      if (index < 0) return;
      this.queue.splice(index, 1);
      waitingRenders.set(this.queue.length);
      queued.reject(new RenderTimeoutError(queued.render.budgetMs));
    }, waitMs);
    if (end === 'front') this.queue.unshift(queued);
    else this.queue.push(queued);
    waitingRenders.set(this.queue.length);
  }

  private pump(): void {
    while (!this.closed && this.running < this.capacity) {
      const index = this.queue.findIndex((queued) => !(this.longRunning && queued.render.longPrint === true));
      if (index < 0) return;
      const next = this.queue[index];
      const browser = this.pickBrowser(next.render.isolation);
      if (browser === undefined) return;
      this.queue.splice(index, 1);
      waitingRenders.set(this.queue.length);
      clearTimeout(next.waitTimer);
      this.dispatch(next, browser);
    }
  }

  private pickBrowser(isolation: PageIsolation): PooledBrowser | undefined {
    let best: PooledBrowser | undefined;
    for (const browser of this.browsers) {
      if (browser.canTake(isolation) && (best === undefined || browser.inFlight < best.inFlight)) best = browser;
    }
    return best;
  }

  private dispatch(queued: QueuedRender, browser: PooledBrowser): void {
    const long = queued.render.longPrint === true;
    this.running++;
    if (long) this.longRunning = true;
    busyPages.set(this.running);
    browser.run(queued.render).then(
      (value) => {
        this.finished(long);
        queued.resolve(value);
      },
      (error: unknown) => {
        this.finished(long);
        const failure = error instanceof Error ? error : new Error(String(error));
        if (failure instanceof BrowserCrashedError && queued.attempts === 0 && !this.closed) {
          queued.attempts++;
          retriedRenders.inc();
          this.logger.warn('render caught in a crash, retrying on a healthy browser', { reason: failure.message });
          // wait a moment: the same crash may still be reaching other pages (renderers are shared between pages)
          setTimeout(() => {
            if (this.closed) {
              queued.reject(new BrowserPoolClosedError());
              return;
            }
            this.enqueue(queued, 'front');
            this.pump();
          }, CRASH_RETRY_DELAY_MS).unref();
          return;
        }
        queued.reject(this.closed && failure instanceof BrowserCrashedError ? new BrowserPoolClosedError() : failure);
      },
    );
  }

  private finished(long: boolean): void {
    this.running--;
    if (long) this.longRunning = false;
    busyPages.set(this.running);
    this.pump();
  }

  private browserGone(browser: PooledBrowser, reason: string): void {
    this.browsers.delete(browser);
    if (this.closed) return;
    if (!reason.includes('closed by the pool')) {
      restarts.inc({ reason: 'crash' });
      this.logger.error('browser gone', { browser: browser.name, reason });
    }
    this.ensureBrowsers();
  }

  /** Starts replacements until the configured number of browsers is ready or starting (a retiring one is missing). */
  private ensureBrowsers(): void {
    if (this.closed) return;
    const ready = [...this.browsers].filter((b) => b.isReady).length;
    for (let missing = this.options.browsers - ready - this.launching; missing > 0; missing--) {
      this.launching++;
      this.launchReplacement(0);
    }
  }

  private launchReplacement(attempt: number): void {
    PooledBrowser.launch(this.launchConfig, this.events).then(
      (browser) => {
        this.launching--;
        if (this.closed) {
          browser.close().catch(() => undefined);
          return;
        }
        this.browsers.add(browser);
        // it replaces a browser past its render limit, if one is waiting for that
        [...this.browsers].find((b) => b.isRetiring)?.retire();
        this.pump();
      },
      (error: unknown) => {
        if (this.closed) {
          this.launching--;
          return;
        }
        const delay = RELAUNCH_BACKOFF_MS[Math.min(attempt, RELAUNCH_BACKOFF_MS.length - 1)];
        this.logger.error('browser could not start, trying again', { err: error, attempt: attempt + 1, retryInMs: delay });
        setTimeout(() => {
          if (this.closed) this.launching--;
          else this.launchReplacement(attempt + 1);
        }, delay).unref();
      },
    );
  }

  /** Kills a browser that does not answer in time; its renders are retried by the crash path. */
  private checkBrowsers(): void {
    for (const browser of this.browsers) {
      if (browser.isGone) continue;
      browser.ping(this.options.answerTimeoutMs).catch((error: unknown) => {
        browser.kill(`it stopped answering: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  }
}
