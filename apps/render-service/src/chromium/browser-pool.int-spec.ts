import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JsonLogger } from '@docrender/observability';
import { treeMemoryMb } from '@docrender/testing';
import type { Page } from 'puppeteer-core';
import { eventually, processesInGroups, rendererProcesses, zombieChildren } from '../../test/chromium-processes';
import { pdfText } from '../../test/pdf-tools';
import { BrowserCrashedError } from './browser-crashed.error';
import { BrowserPool, BrowserPoolOptions } from './browser-pool';
import { locateChromium } from './chromium-executable';
import { printPdfOnPage } from './page-printer';
import type { PageWork } from './pooled-browser';
import { isLongPrint } from './printed-size';
import { RenderTimeoutError } from './render-timeout.error';

const quietLogger = new JsonLogger('render-service-test', 'error', {}, () => undefined);

async function poolOptions(overrides: Partial<BrowserPoolOptions> = {}): Promise<BrowserPoolOptions> {
  return {
    executablePath: await locateChromium(process.env.PUPPETEER_EXECUTABLE_PATH),
    browsers: 1,
    pagesPerBrowser: 2,
    maxRendersPerBrowser: 1000,
    freshDocumentEvery: 50,
    checkIntervalMs: 500,
    answerTimeoutMs: 1000,
    creator: 'docrender render-service (test)',
    logger: quietLogger,
    ...overrides,
  };
}

const INVOICE = `<!doctype html><html><head><meta charset="utf-8"><style>@page { size: A4; margin: 15mm }</style></head>
<body><h1>Invoice 2026-0042</h1><p>Total 1.234,56 EUR</p></body></html>`;

function print(pool: BrowserPool, html: string, options: { budgetMs?: number; javaScript?: boolean } = {}): Promise<Buffer> {
  const budgetMs = options.budgetMs ?? 20_000;
  const javaScript = options.javaScript ?? false;
  return pool.run({
    isolation: javaScript ? 'fresh-context' : 'reused-page',
    javaScript,
    deadline: Date.now() + budgetMs,
    budgetMs,
    work: (page) => printPdfOnPage(page, { html, tagged: false, headerHtml: null, footerHtml: null }),
  });
}

/** Runs `work` on one of the pool's reused pages (JavaScript off) within a 20 s budget. */
function onReusedPage<T>(pool: BrowserPool, work: PageWork<T>): Promise<T> {
  return pool.run({ isolation: 'reused-page', javaScript: false, deadline: Date.now() + 20_000, budgetMs: 20_000, work });
}

/** A local HTTP + WebSocket listener that records every request a page manages to send. */
async function startTrap(): Promise<{ server: Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.end('reached');
  });
  server.on('upgrade', (request, socket) => {
    hits.push(`upgrade ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

function hostileHtml(port: number): string {
  const origin = `http://127.0.0.1:${port}`;
  return `<!doctype html><html><head>
  <link rel="stylesheet" href="${origin}/link.css">
  <link rel="prefetch" href="${origin}/prefetch">
  <style>@import url("${origin}/import.css"); @import url("file:///etc/passwd");
    body { background: url("${origin}/background.png") } @font-face { font-family: x; src: url("${origin}/font.woff2") }
    p { font-family: x }</style>
  <meta http-equiv="refresh" content="0; url=${origin}/refresh">
  </head><body><p>HOSTILE-MARKER</p>
  <img src="${origin}/img.png"><img src="http://localhost:${port}/localhost.png"><img src="http://[::1]:${port}/ipv6.png">
  <img src="file:///etc/passwd"><img src="http://example.com/external.png">
  <iframe src="${origin}/iframe"></iframe><iframe src="file:///etc/passwd"></iframe><iframe src="file:///etc/"></iframe>
  <object data="file:///etc/passwd"></object><embed src="${origin}/embed"><video src="${origin}/video"></video>
  <script>
    fetch("${origin}/fetch").catch(() => undefined);
    try { new WebSocket("ws://127.0.0.1:${port}/websocket"); } catch (e) {}
    try { new Worker("data:text/javascript,fetch('${origin}/worker')"); } catch (e) {}
    try { navigator.sendBeacon("${origin}/beacon"); } catch (e) {}
    try { new EventSource("${origin}/event-source"); } catch (e) {}
    try { const x = new XMLHttpRequest(); x.open('GET', 'file:///etc/passwd', false); x.send(); document.body.append(x.responseText); } catch (e) {}
    try { location.href = "${origin}/navigate"; } catch (e) {}
  </script></body></html>`;
}

describe('render-service Chromium pool (real Chromium)', () => {
  let pool: BrowserPool;

  beforeAll(async () => {
    pool = await BrowserPool.start(await poolOptions());
  });

  afterAll(async () => {
    await pool?.close();
  });

  it('isolation: no request from a page reaches the network or the filesystem (file:, 127.0.0.1, localhost, iframes, <link>, @import, scripts)', async () => {
    const trap = await startTrap();
    try {
      const html = hostileHtml(trap.port);
      const withoutJavaScript = await print(pool, html);
      const withJavaScript = await print(pool, html, { javaScript: true });
      // give late requests (refresh, workers, beacons) time to arrive before looking
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(trap.hits).toEqual([]);
      for (const pdf of [withoutJavaScript, withJavaScript]) {
        const text = await pdfText(pdf);
        expect(text).toContain('HOSTILE-MARKER');
        expect(text).not.toMatch(/root:.*:0:0:/);
        expect(text).not.toContain('reached');
      }
    } finally {
      await new Promise((resolve) => trap.server.close(resolve));
    }
  });

  it('isolation: nothing (storage, cookies, cache, DOM, styles) passes from one render to the next on a reused page', async () => {
    const pagesSeen: unknown[] = [];
    const first = `<!doctype html><html><head><meta http-equiv="set-cookie" content="leak=1">
      <style>body::after { content: "STYLE-FROM-A" }</style><base href="http://127.0.0.1:9/"></head>
      <body><p id="secret">SECRET-OF-A</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><img src="refused-url-of-a.png">
      <script>localStorage.setItem('k', 'LEAK'); document.cookie = 'c=LEAK'; window.leak = 'A';</script></body></html>`;
    const inspect: PageWork<Record<string, unknown>> = async (page) => {
      pagesSeen.push(page);
      const pdf = await printPdfOnPage(page, { html: '<!doctype html><p>Render B</p>', tagged: false, headerHtml: null, footerHtml: null });
      const state = await page.evaluate(() => ({
        html: document.documentElement.outerHTML,
        styleSheets: Array.from(document.styleSheets, (sheet) => Array.from(sheet.cssRules, (rule) => rule.cssText).join('\n')),
        windowLeak: typeof (window as unknown as { leak?: unknown }).leak,
        storage: (() => {
          try {
            return localStorage.length;
          } catch {
            return 'no storage for this origin';
          }
        })(),
        resources: performance.getEntriesByType('resource').length,
      }));
      return { ...state, cookies: await page.cookies(), text: await pdfText(pdf) };
    };

    // one page, so the second render gets the page the first one used
    const onePage = await BrowserPool.start(await poolOptions({ pagesPerBrowser: 1 }));
    let second: Record<string, unknown>;
    try {
      await onReusedPage(onePage, async (page) => {
        pagesSeen.push(page);
        return printPdfOnPage(page, { html: first, tagged: false, headerHtml: null, footerHtml: null });
      });
      second = await onReusedPage(onePage, inspect);
    } finally {
      await onePage.close();
    }

    expect(pagesSeen[0]).toBe(pagesSeen[1]);
    expect(second.text).toContain('Render B');
    expect(second.text).not.toContain('SECRET-OF-A');
    expect(second.text).not.toContain('STYLE-FROM-A');
    expect(second.html).not.toContain('SECRET-OF-A');
    expect(second.html).not.toContain('base');
    // the one style sheet left is the printer's own rule that keeps document B off the screen
    expect(second.styleSheets).toEqual(['@media screen {\n  :root { display: none !important; }\n}']);
    expect(second.windowLeak).toBe('undefined');
    expect([0, 'no storage for this origin']).toContain(second.storage);
    expect(second.resources).toBe(0);
    expect(second.cookies).toEqual([]);
  });

  it('pool: every reused page is visible, since Chromium runs a renderer whose pages are all hidden at background priority', async () => {
    let arrived = 0;
    let bothRunning: () => void = () => undefined;
    const together = new Promise<void>((resolve) => (bothRunning = resolve));
    const visibility: PageWork<string> = async (page) => {
      if (++arrived === 2) bothRunning();
      await together;
      return page.evaluate(() => document.visibilityState);
    };
    const run = () => onReusedPage(pool, visibility);
    expect(await Promise.all([run(), run()])).toEqual(['visible', 'visible']);
  });

  it('8: an endless page ends with RenderTimeout within its budget, and the next render succeeds', async () => {
    // Reused pages run no JavaScript; the endless page is a document that needs JavaScript (fresh context)
    // and never finishes loading: an infinite loop in an inline script.
    const started = Date.now();
    await expect(print(pool, '<p>endless</p><script>for (;;) {}</script>', { budgetMs: 1500, javaScript: true })).rejects.toBeInstanceOf(
      RenderTimeoutError,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(pdfText(await print(pool, INVOICE))).resolves.toContain('Invoice 2026-0042');
  });

  it('pool: a browser killed mid-batch still yields every document, retried once on a healthy browser', async () => {
    const [victim] = pool.browserProcessIds;
    const batch = Promise.allSettled(Array.from({ length: 12 }, () => print(pool, INVOICE)));
    await new Promise((resolve) => setTimeout(resolve, 150));
    process.kill(victim, 'SIGKILL');
    const results = await batch;
    expect(results.map((r) => r.status)).toEqual(Array(12).fill('fulfilled'));
    expect(pool.browserProcessIds).not.toContain(victim);
    expect(await eventually(() => processesInGroups([victim]).length === 0, 5000)).toBe(true);
  });

  it('pool: a renderer that crashes mid-render costs a retry, not the document, and its page is replaced', async () => {
    const [browser] = pool.browserProcessIds;
    let attempts = 0;
    const pdf = await onReusedPage(pool, async (page) => {
      attempts++;
      if (attempts === 1) {
        await page.setContent('<p>about to lose its renderer</p>');
        for (const renderer of rendererProcesses(browser)) process.kill(renderer, 'SIGKILL');
        return new Promise<Buffer>(() => undefined);
      }
      return printPdfOnPage(page, { html: INVOICE, tagged: false, headerHtml: null, footerHtml: null });
    });
    expect(attempts).toBe(2);
    expect(await pdfText(pdf)).toContain('Invoice 2026-0042');
    expect(pool.browserProcessIds).toContain(browser);
    const results = await Promise.all(Array.from({ length: 4 }, () => print(pool, INVOICE)));
    expect(results).toHaveLength(4);
  });

  it('pool: a page that cannot be cleared after its render breaks, and the render already handed it is retried elsewhere', async () => {
    const single = await BrowserPool.start(await poolOptions({ pagesPerBrowser: 1 }));
    const [browser] = single.browserProcessIds;
    let stopped: number[] = [];
    try {
      const first = await onReusedPage(single, async (page) => {
        await page.setContent(INVOICE);
        // the renderer stops answering once the document is done: the page's clearing cannot finish
        stopped = rendererProcesses(browser);
        for (const renderer of stopped) process.kill(renderer, 'SIGSTOP');
        return 'printed';
      });
      expect(first).toBe('printed');
      let attempts = 0;
      const second = await onReusedPage(single, (page) => {
        attempts++;
        return printPdfOnPage(page, { html: INVOICE, tagged: false, headerHtml: null, footerHtml: null });
      });
      expect(await pdfText(second)).toContain('Invoice 2026-0042');
      expect(attempts).toBe(2);
    } finally {
      for (const renderer of stopped) {
        try {
          process.kill(renderer, 'SIGCONT');
        } catch {
          // gone with its page or browser
        }
      }
      await single.close();
    }
  });

  it('pool: a browser that stops answering is killed and replaced; its renders finish elsewhere', async () => {
    const [victim] = pool.browserProcessIds;
    process.kill(victim, 'SIGSTOP');
    try {
      const results = await Promise.allSettled(Array.from({ length: 4 }, () => print(pool, INVOICE)));
      expect(results.map((r) => r.status)).toEqual(Array(4).fill('fulfilled'));
      expect(pool.browserProcessIds).not.toContain(victim);
    } finally {
      try {
        process.kill(victim, 'SIGCONT');
      } catch {
        // killed by the pool, as expected
      }
    }
  });

  it('pool: a browser past its render limit renders on until its replacement is ready, then closes', async () => {
    const limited = await BrowserPool.start(await poolOptions({ maxRendersPerBrowser: 3, pagesPerBrowser: 1 }));
    try {
      const [first] = limited.browserProcessIds;
      const browserPid: PageWork<number | undefined> = async (page) => page.browser().process()?.pid;
      const ranOn: Array<number | undefined> = [];
      for (let i = 0; i < 4; i++) ranOn.push(await onReusedPage(limited, browserPid));
      // the fourth came while the replacement was starting: the old browser took it rather than leave it waiting
      expect(ranOn).toEqual([first, first, first, first]);
      expect(await eventually(() => limited.browserProcessIds.length === 1 && limited.browserProcessIds[0] !== first, 15_000)).toBe(true);
      expect(await eventually(() => processesInGroups([first]).length === 0, 5000)).toBe(true);
      const [second] = limited.browserProcessIds;
      expect(await onReusedPage(limited, browserPid)).toBe(second);
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => print(limited, INVOICE)));
      expect(results.map((r) => r.status)).toEqual(Array(8).fill('fulfilled'));
      expect(await eventually(() => !limited.browserProcessIds.includes(second as number), 15_000)).toBe(true);
    } finally {
      await limited.close();
    }
  });

  it('pool: a reused page loads a new document every freshDocumentEvery renders, and stays the same page', async () => {
    const refreshing = await BrowserPool.start(await poolOptions({ pagesPerBrowser: 1, freshDocumentEvery: 3 }));
    const pages = new Set<unknown>();
    const documentsSeen: number[] = [];
    try {
      for (let i = 0; i < 7; i++) {
        const seen = await onReusedPage(refreshing, async (page) => {
          pages.add(page);
          await page.setContent(INVOICE);
          // through the DevTools protocol: a mark on the Window counts the documents written into it
          return page.evaluate(() => {
            const window = globalThis as unknown as { documentsSeen?: number };
            window.documentsSeen = (window.documentsSeen ?? 0) + 1;
            return window.documentsSeen;
          });
        });
        documentsSeen.push(seen);
      }
    } finally {
      await refreshing.close();
    }
    expect(documentsSeen).toEqual([1, 2, 3, 1, 2, 3, 1]);
    expect(pages.size).toBe(1);
  });

  it('pool: a reused page that printed a long document is closed and replaced, and its renderer gives the memory back (LONG_PRINT_CHARS)', async () => {
    const releasing = await BrowserPool.start(await poolOptions({ pagesPerBrowser: 1 }));
    const [leader] = releasing.browserProcessIds;
    const chromiumMb = (): number => treeMemoryMb(leader).privateMb;
    const rows = Array.from({ length: 10_000 }, (_, i) => `<tr><td>${i + 1}</td><td>2026-11-${String((i % 28) + 1).padStart(2, '0')}</td><td>Payment received, reference RF18 5390 0754 7034 ${i}</td><td>1.234,56 EUR</td></tr>`);
    const long = `<!doctype html><html><head><meta charset="utf-8"><style>@page { size: A4; margin: 15mm }</style></head><body><table>${rows.join('')}</table></body></html>`;
    const parts = { html: long, headerHtml: null, footerHtml: null };
    expect(isLongPrint([parts])).toBe(true);
    expect(isLongPrint([{ html: INVOICE, headerHtml: null, footerHtml: null }])).toBe(false);
    const pagesUsed: Page[] = [];
    try {
      const before = chromiumMb();
      const afterPrint = await releasing.run({
        isolation: 'reused-page',
        javaScript: false,
        deadline: Date.now() + 120_000,
        budgetMs: 120_000,
        longPrint: isLongPrint([parts]),
        work: async (page) => {
          pagesUsed.push(page);
          await printPdfOnPage(page, { ...parts, tagged: false });
          return chromiumMb();
        },
      });
      const grew = afterPrint - before;
      expect(grew).toBeGreaterThan(100);
      await onReusedPage(releasing, async (page) => {
        pagesUsed.push(page);
        await page.setContent(INVOICE);
      });
      expect(pagesUsed[1]).not.toBe(pagesUsed[0]);
      expect(pagesUsed[0].isClosed()).toBe(true);
      // the renderer that printed it has ended: at most half of what the print took is still held
      expect(await eventually(() => chromiumMb() - before < grew / 2, 30_000)).toBe(true);
    } finally {
      await releasing.close();
    }
  });

  it('pool: one long print at a time (LONG_PRINT_CHARS): a second long print waits for the first, a short render passes it on the free page', async () => {
    // 2 pages; the work functions stand for prints and end when the test lets them
    const events: string[] = [];
    const ends = new Map<string, () => void>();
    const started = new Map<string, Promise<void>>();
    const task = (name: string, longPrint: boolean): Promise<void> => {
      let begun!: () => void;
      started.set(name, new Promise<void>((resolve) => (begun = resolve)));
      return pool.run({
        isolation: 'reused-page',
        javaScript: false,
        deadline: Date.now() + 60_000,
        budgetMs: 60_000,
        longPrint,
        work: async () => {
          events.push(`${name} starts`);
          begun();
          await new Promise<void>((resolve) => ends.set(name, resolve));
          events.push(`${name} ends`);
        },
      });
    };
    const first = task('long 1', true);
    await started.get('long 1');
    const second = task('long 2', true);
    const short = task('short', false);
    await started.get('short');
    expect(events).toEqual(['long 1 starts', 'short starts']);
    ends.get('short')?.();
    await short;
    // the page the short render used is free again, and the second long print still waits for the first
    await onReusedPage(pool, async (page) => page.setContent('<p>another short render</p>'));
    expect(events).toEqual(['long 1 starts', 'short starts', 'short ends']);
    ends.get('long 1')?.();
    await first;
    await started.get('long 2');
    ends.get('long 2')?.();
    await second;
    expect(events).toEqual(['long 1 starts', 'short starts', 'short ends', 'long 1 ends', 'long 2 starts', 'long 2 ends']);
  });

  it('pool: close leaves no Chromium process and no zombie behind', async () => {
    const closing = await BrowserPool.start(await poolOptions({ browsers: 2 }));
    const leaders = closing.browserProcessIds;
    expect(leaders).toHaveLength(2);
    expect(processesInGroups(leaders).length).toBeGreaterThan(2);
    await print(closing, INVOICE);
    await closing.close();
    expect(await eventually(() => processesInGroups(leaders).length === 0, 5000)).toBe(true);
    expect(zombieChildren()).toEqual([]);
    await expect(print(closing, INVOICE)).rejects.toThrow('closed');
  });

  it('pool: a render that crashes twice is reported, not retried forever', async () => {
    let attempts = 0;
    const crashing = onReusedPage(pool, async (page) => {
      attempts++;
      await page.setContent('<p>about to crash</p>');
      process.kill(pool.browserProcessIds[0], 'SIGKILL');
      return new Promise<Buffer>(() => undefined);
    });
    await expect(crashing).rejects.toBeInstanceOf(BrowserCrashedError);
    expect(attempts).toBe(2);
    await expect(pdfText(await print(pool, INVOICE))).resolves.toContain('Invoice 2026-0042');
  });
});
