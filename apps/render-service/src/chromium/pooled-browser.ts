import { counter, type Logger } from '@docrender/observability';
import { builtinFontFile } from '@docrender/template-dsl';
import puppeteer, { Browser, BrowserContext, type CDPSession, HTTPRequest, Page, ProtocolError } from 'puppeteer-core';
import { BrowserCrashedError } from './browser-crashed.error';
import { RenderTimeoutError } from './render-timeout.error';
import { serviceFontConfigFile } from './service-fonts';

/** How long a failed render waits for its page or browser to report the crash that may have caused the failure. */
const CRASH_REPORT_GRACE_MS = 250;

/**
 * How a render gets its page:
 * - `reused-page`: one of the browser's long-lived pages, JavaScript off. Safe to share between documents because
 *   no script runs and nothing reaches the network, so a document can leave no state behind (the render-isolation
 *   integration test proves it); `setContent` replaces the whole DOM.
 * - `fresh-context`: a new incognito browser context and page, closed afterwards. For documents that need
 *   JavaScript, and for previews (which change the viewport and media type).
 */
export type PageIsolation = 'reused-page' | 'fresh-context';

/** The part of a render that talks to the page; `remainingMs` is what is left of the budget when it starts. */
export type PageWork<T> = (page: Page, remainingMs: number) => Promise<T>;

export type PageTask<T> = {
  isolation: PageIsolation;
  javaScript: boolean;
  /** Epoch milliseconds; past it the page is closed and the task fails with RenderTimeoutError. */
  deadline: number;
  /** The budget the deadline was derived from, for the error message. */
  budgetMs: number;
  /**
   * A long print (printed-size.ts, LONG_PRINT_CHARS): the pool runs one at a time, and a reused page is closed after
   * it and a new one opened in its place, so its renderer process ends and gives back the memory the print took.
   * Absent: not long.
   */
  longPrint?: boolean;
  work: PageWork<T>;
};

export type BrowserLaunchConfig = {
  executablePath: string;
  args: string[];
  pagesPerBrowser: number;
  maxRenders: number;
  /** A reused page loads a new, empty document after this many renders on the old one (returnWhenClean). */
  freshDocumentEvery: number;
  /** Bound on closing a page or browser before its process is killed instead. */
  closeTimeoutMs: number;
  logger: Logger;
};

/** What a pooled browser tells its pool. */
export type BrowserEvents = {
  /** A page or a render slot became free. */
  onCapacity(browser: PooledBrowser): void;
  /**
   * The browser reached its render limit. It keeps taking work until the pool has its replacement ready and calls
   * retire(), so a restart never leaves the pool without pages.
   */
  onRenderLimit(browser: PooledBrowser): void;
  /** The browser is gone (crashed, killed, or closed after draining). */
  onGone(browser: PooledBrowser, reason: string): void;
};

/**
 * ready: takes work; retiring: past its render limit, takes work until its replacement is ready; draining: finishes
 * what it holds, then closes; gone: its process has ended.
 */
type BrowserState = 'ready' | 'retiring' | 'draining' | 'gone';

/**
 * Every reused page gets a window of its own. Chromium shows only the front tab of a window: the other tabs are
 * hidden, and a renderer with no visible page runs at background priority (nice 5 on Linux, whatever
 * --disable-renderer-backgrounding says), so with tabs all pages but one would print slower whenever anything else
 * wants the CPU. A page alone in its window is visible and keeps normal priority.
 */
const OWN_WINDOW = { type: 'window' } as const;

/**
 * A reused page, the promise that rejects when its renderer crashes (or the page otherwise breaks), and how many
 * documents have been written into its current Document.
 */
type ReusablePage = {
  page: Page;
  crashed: Promise<never>;
  /** The page is not to be trusted again (its renderer crashed, or it could not be cleared): as if it crashed. */
  broken(error: Error): void;
  rendersOnDocument: number;
};

const pagesReleased = counter('docrender_render_pages_released_total', 'Reused pages closed after a long document, so their renderer gave its memory back.');

let nextBrowserNumber = 1;

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * How a built-in font file is answered (decision 0020): from memory, cacheable for a year, so Blink's memory cache
 * keeps the decoded face for every later document on the page and asks again only on a new Document. The font is
 * fetched in CORS mode from an opaque origin (setContent on about:blank), hence the allow-origin header.
 */
const BUILTIN_FONT_RESPONSE_HEADERS = { 'Cache-Control': 'public, max-age=31536000, immutable', 'Access-Control-Allow-Origin': '*' };

/**
 * Every request a page makes is refused except inline `data:` resources and the built-in font files, which are
 * answered from memory (builtinFontFile: a file of the bundled font packages, nothing else; documents compiled with
 * `builtinFonts: 'served'` name them). A navigation (meta refresh, a script setting location, a frame) is answered
 * "204 No Content", which makes Chromium stay on the current document instead of replacing it with an error page.
 * This is the second layer: the browser is also launched with no route out (chromium-flags.ts), which covers what
 * interception does not see.
 */
function blockEveryRequest(request: HTTPRequest): void {
  let handled: Promise<void>;
  if (request.url().startsWith('data:')) handled = request.continue();
  else if (request.isNavigationRequest()) handled = request.respond({ status: 204, body: '' });
  else {
    const font = request.method() === 'GET' ? builtinFontFile(request.url()) : null;
    if (font === null) handled = request.abort('blockedbyclient');
    else handled = request.respond({ status: 200, headers: BUILTIN_FONT_RESPONSE_HEADERS, contentType: 'font/woff2', body: font });
  }
  handled.catch(() => undefined);
}

/** One supervised Chromium process with its reused pages. */
export class PooledBrowser {
  readonly name = `browser-${nextBrowserNumber++}`;
  private state: BrowserState = 'ready';
  private readonly idlePages: ReusablePage[] = [];
  private inFlightCount = 0;
  private rendersStarted = 0;
  private readonly disconnected: Promise<never>;
  private rejectDisconnected: (error: Error) => void = () => undefined;
  private goneReason = 'it crashed or was killed from outside';
  /** When the browser last answered a DevTools call (launched counts as answered); the readiness probe reads it. */
  private answeredAt = Date.now();
  /** The DevTools session the pings go through (opened at the first ping). */
  private pingSession: Promise<CDPSession> | null = null;

  private constructor(
    private readonly browser: Browser,
    private readonly config: BrowserLaunchConfig,
    private readonly events: BrowserEvents,
  ) {
    this.disconnected = new Promise<never>((_, reject) => {
      this.rejectDisconnected = reject;
    });
    this.disconnected.catch(() => undefined);
    browser.once('disconnected', () => this.markGone(`the browser process ended (${this.goneReason})`));
  }

  static async launch(config: BrowserLaunchConfig, events: BrowserEvents): Promise<PooledBrowser> {
    const browser = await puppeteer.launch({
      executablePath: config.executablePath,
      headless: true,
      pipe: true,
      args: config.args,
      // Chromium sees the built-in script fonts and no font of the host (issue 33 item 2, decision 0030). It inherits
      // the service's environment as puppeteer's default does (no setting is read here), plus FONTCONFIG_FILE.
      // eslint-disable-next-line no-restricted-properties
      env: { ...process.env, FONTCONFIG_FILE: serviceFontConfigFile() },
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      waitForInitialPage: true,
    });
    const pooled = new PooledBrowser(browser, config, events);
    try {
      // the initial page is alone in the first window
      const [initial] = await browser.pages();
      const pages = initial === undefined ? [] : [initial];
      while (pages.length < config.pagesPerBrowser) pages.push(await browser.newPage(OWN_WINDOW));
      for (const page of pages) pooled.idlePages.push(await pooled.prepareReusedPage(page));
    } catch (error) {
      await pooled.close();
      throw error;
    }
    config.logger.info('browser started', { browser: pooled.name, pid: pooled.pid ?? null, pages: config.pagesPerBrowser });
    return pooled;
  }

  get pid(): number | undefined {
    return this.browser.process()?.pid;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Takes work and is below its render limit. */
  get isReady(): boolean {
    return this.state === 'ready';
  }

  /** Past its render limit, still taking work until its replacement is ready. */
  get isRetiring(): boolean {
    return this.state === 'retiring';
  }

  get isGone(): boolean {
    return this.state === 'gone';
  }

  canTake(isolation: PageIsolation): boolean {
    if ((this.state !== 'ready' && this.state !== 'retiring') || this.inFlightCount >= this.config.pagesPerBrowser) return false;
    return isolation === 'fresh-context' || this.idlePages.length > 0;
  }

  /** The browser's product and version, e.g. `HeadlessChrome/156.0.8078.108` (Browser.getVersion). */
  version(): Promise<string> {
    return this.browser.version();
  }

  /** Resolves when the browser answers a DevTools call within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<void> {
    // Browser.version() answers from memory after its first call (puppeteer 25): a ping asks the browser every time
    this.pingSession ??= this.browser.target().createCDPSession();
    const session = this.pingSession;
    try {
      await withTimeout(
        session.then((s) => s.send('Browser.getVersion')),
        timeoutMs,
        'Browser.getVersion',
      );
    } catch (error) {
      if (this.pingSession === session) this.pingSession = null;
      throw error;
    }
    this.answeredAt = Date.now();
  }

  /** Milliseconds since the browser last answered a ping (or was launched). */
  get sinceLastAnswerMs(): number {
    return Date.now() - this.answeredAt;
  }

  async run<T>(task: PageTask<T>): Promise<T> {
    if (!this.canTake(task.isolation)) throw new Error(`${this.name} cannot take a ${task.isolation} render now`);
    this.inFlightCount++;
    this.rendersStarted++;
    try {
      return task.isolation === 'fresh-context' ? await this.runInFreshContext(task) : await this.runOnReusedPage(task);
    } finally {
      this.inFlightCount--;
      this.afterRender();
    }
  }

  /** Its replacement is ready: a retiring browser takes no more work, finishes what it holds and closes. */
  retire(): void {
    if (this.state !== 'retiring') return;
    this.state = 'draining';
    this.afterRender();
  }

  /** Kills the whole process group (browser, zygote, renderers) and reports the browser gone. */
  kill(reason: string): void {
    if (this.state === 'gone') return;
    this.goneReason = reason;
    this.config.logger.warn('killing browser', { browser: this.name, pid: this.pid ?? null, reason });
    this.killProcessGroup();
    this.markGone(reason);
  }

  /** Closes the browser (bounded; killed when it does not close in time). Renders still on it fail as crashed. */
  async close(): Promise<void> {
    if (this.state === 'gone') return;
    this.goneReason = 'closed by the pool';
    try {
      await withTimeout(this.browser.close(), this.config.closeTimeoutMs, 'closing the browser');
    } catch (error) {
      this.kill(`it did not close: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.markGone('closed by the pool');
  }

  private markGone(reason: string): void {
    if (this.state === 'gone') return;
    this.state = 'gone';
    this.rejectDisconnected(new BrowserCrashedError(`${this.name}: ${reason}`));
    // the DevTools pipe may break while the process lives on: make sure nothing of it stays behind
    this.killProcessGroup();
    this.events.onGone(this, reason);
  }

  private killProcessGroup(): void {
    const child = this.browser.process();
    if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      // puppeteer starts Chromium as a process group leader, so -pid reaches every Chromium process
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }

  private async prepareReusedPage(page: Page): Promise<ReusablePage> {
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', blockEveryRequest);
    let rejectCrashed: (error: Error) => void = () => undefined;
    const crashed = new Promise<never>((_, reject) => {
      rejectCrashed = reject;
    });
    crashed.catch(() => undefined);
    const reusable: ReusablePage = {
      page,
      crashed,
      rendersOnDocument: 0,
      broken: (error) => {
        rejectCrashed(error);
        // a page that breaks while idle is replaced before anyone picks it
        const idleAt = this.idlePages.indexOf(reusable);
        if (idleAt >= 0) {
          this.idlePages.splice(idleAt, 1);
          this.replacePage(page);
        }
      },
    };
    page.once('error', (error) => reusable.broken(new BrowserCrashedError(`the page's renderer crashed: ${error.message}`)));
    return reusable;
  }

  private async runOnReusedPage<T>(task: PageTask<T>): Promise<T> {
    const reusable = this.idlePages.pop();
    if (reusable === undefined) throw new Error(`${this.name} has no idle page`);
    let result: T;
    try {
      result = await this.guarded(task, reusable.page, reusable.crashed);
    } catch (error) {
      // timed out, crashed or failed half-way: the page is not trusted again
      this.replacePage(reusable.page);
      throw error;
    }
    reusable.rendersOnDocument++;
    if (task.longPrint === true) {
      pagesReleased.inc();
      this.replacePage(reusable.page);
    } else if (reusable.page.url() === 'about:blank') {
      this.returnWhenClean(reusable);
    } else {
      this.replacePage(reusable.page);
    }
    return result;
  }

  /**
   * Puts a used page back with nothing of the last document left for the next one to find, after the result has
   * gone back to the caller (so it costs a render nothing while the document is stored and replied to).
   * - Usually: `setContent` replaces the DOM but keeps the page's Document and Window, and with them the resource
   *   timeline (the URLs the document tried to load), which is cleared. The page is handed out again at once: the
   *   commands of a page's DevTools session run in order, so the next document's `setContent` runs after the
   *   clearing. A clearing that fails or does not finish breaks the page (BrowserCrashedError), so a render already
   *   on it is retried elsewhere (like a render caught in a crash) and the page is replaced.
   * - Every `freshDocumentEvery` renders: the page loads a new, empty document (about:blank, which never reaches the
   *   network or the request interception) before it is handed out again. A Document that documents are written
   *   into grows slower to write into (measured: setContent of the invoice +2–3 ms per 50 renders, so +12 ms after
   *   250); a new one costs about 22 ms (docs/performance.md). A page that cannot load it is replaced.
   */
  private returnWhenClean(reusable: ReusablePage): void {
    const bounded = (work: Promise<unknown>, what: string): Promise<unknown> =>
      Promise.race([withTimeout(work, this.config.closeTimeoutMs, what), reusable.crashed, this.disconnected]);
    const handOut = (): void => {
      if (this.state === 'gone') return;
      this.idlePages.push(reusable);
      this.events.onCapacity(this);
    };
    if (reusable.rendersOnDocument < this.config.freshDocumentEvery) {
      bounded(reusable.page.evaluate(() => performance.clearResourceTimings()), 'clearing a page').catch((error: unknown) =>
        reusable.broken(new BrowserCrashedError(`the page could not be cleared: ${error instanceof Error ? error.message : String(error)}`)),
      );
      handOut();
      return;
    }
    const loaded = reusable.page.goto('about:blank', { waitUntil: 'load', timeout: 0 });
    bounded(loaded, 'loading a new document').then(
      () => {
        reusable.rendersOnDocument = 0;
        handOut();
      },
      () => this.replacePage(reusable.page),
    );
  }

  private async runInFreshContext<T>(task: PageTask<T>): Promise<T> {
    let context: BrowserContext | undefined;
    try {
      context = await Promise.race([this.browser.createBrowserContext(), this.disconnected]);
      const page = await Promise.race([context.newPage(), this.disconnected]);
      await page.setJavaScriptEnabled(task.javaScript);
      await page.setRequestInterception(true);
      page.on('request', blockEveryRequest);
      const crashed = new Promise<never>((_, reject) => {
        page.once('error', (error) => reject(new BrowserCrashedError(`the page's renderer crashed: ${error.message}`)));
      });
      crashed.catch(() => undefined);
      return await this.guarded(task, page, crashed);
    } finally {
      if (context !== undefined) await this.closeOrKill(context.close(), 'closing a browser context');
    }
  }

  /** Runs the task's work on a page, bounded by the task's deadline, the browser's life and the page's. */
  private async guarded<T>(task: PageTask<T>, page: Page, pageCrashed: Promise<never>): Promise<T> {
    const remainingMs = task.deadline - Date.now();
    if (remainingMs <= 0) throw new RenderTimeoutError(task.budgetMs);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderTimeoutError(task.budgetMs)), remainingMs);
    });
    const work = task.work(page, remainingMs);
    work.catch(() => undefined);
    try {
      return await Promise.race([work, timedOut, pageCrashed, this.disconnected]);
    } catch (error) {
      if (error instanceof BrowserCrashedError || error instanceof RenderTimeoutError) throw error;
      // The print's own command fails from a renderer crash ("Printing failed", "Target closed") a moment before the
      // page reports the crash: it is a crash all the same (retried once by the pool, then reported as one), not an
      // unexplained failure. A failure with no crash behind it waits this moment once.
      const crash = await Promise.race([
        Promise.race([pageCrashed, this.disconnected]).catch((reason: unknown) => reason),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), CRASH_REPORT_GRACE_MS)),
      ]);
      if (crash instanceof BrowserCrashedError) throw crash;
      if (error instanceof ProtocolError && /Target (closed|crashed)|Session closed/i.test(error.message)) {
        throw new BrowserCrashedError(`the page's renderer crashed: ${error.message}`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes a used page and opens a fresh one in its place; a browser that cannot do that is killed. */
  private replacePage(page: Page): void {
    if (this.state === 'gone') return;
    const replace = async (): Promise<void> => {
      await this.closeOrKill(page.close(), 'closing a page');
      if (this.state === 'gone') return;
      const fresh = await withTimeout(this.browser.newPage(OWN_WINDOW), this.config.closeTimeoutMs, 'opening a page');
      const reusable = await this.prepareReusedPage(fresh);
      if (this.isGone) return;
      this.idlePages.push(reusable);
      this.events.onCapacity(this);
    };
    replace().catch((error: unknown) => {
      this.kill(`could not replace a page: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private async closeOrKill(closing: Promise<void>, what: string): Promise<void> {
    if (this.state === 'gone') {
      closing.catch(() => undefined);
      return;
    }
    try {
      await withTimeout(closing, this.config.closeTimeoutMs, what);
    } catch (error) {
      this.kill(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private afterRender(): void {
    if (this.state === 'ready' && this.rendersStarted >= this.config.maxRenders) {
      this.state = 'retiring';
      this.config.logger.info('browser reached its render limit; it renders on until its replacement is ready', {
        browser: this.name,
        renders: this.rendersStarted,
      });
      this.events.onRenderLimit(this);
    }
    if (this.state === 'draining' && this.inFlightCount === 0) {
      this.close().catch(() => undefined);
      return;
    }
    if (this.state === 'ready' || this.state === 'retiring') this.events.onCapacity(this);
  }
}
