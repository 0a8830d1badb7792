/**
 * The workspace's live preview (issue 35 item 3): how long after the last keystroke the invoice's preview is visible
 * (every page drawn) in a real browser. A script, not a test: it prints figures and asserts nothing.
 *
 *   node tools/build.mjs --quiet && node dist/bench/workspace/preview.bench.js
 *
 * It starts `npm start`'s one process (render service with one Chromium, the workspace under /workspace) on a fresh
 * PostgreSQL database, signs a user in with headless Chromium, creates a template from the invoice example, then
 * BENCH_EDITS (20) times types or deletes one character in the title and measures from the keystroke to the moment the
 * re-rendered pages are drawn (the page's data-rendered mark). The figure includes the editor's 250 ms debounce.
 * Prints p50/p95 and the load average (read it on a quiet machine).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { hashPassword, provisionOrganisation } from '@docrender/persistence';
import { createTestDatabase, freePort, startAppProcess } from '@docrender/testing';
import { median, percentile, RAW_FLAGS } from '../shared/bench-kit';
import { runBench } from '../shared/run-bench';

const EDITS = Number(process.env.BENCH_EDITS ?? 20);
const PASSWORD = 'bench password not secret';

async function main(): Promise<void> {
  const db = await createTestDatabase();
  const dir = await mkdtemp(path.join(tmpdir(), 'docrender-workspace-bench-'));
  const port = await freePort();
  const app = startAppProcess('apps/standalone/src/main.js', { PORT: String(port), DATABASE_URL: db.url, BLOB_DIR: path.join(dir, 'blobs'), SEED_DEMO: 'false', RENDER_BROWSERS: '1' });
  const browser = await puppeteer.launch({ executablePath: process.env.PUPPETEER_EXECUTABLE_PATH ?? '/usr/bin/chromium', headless: true, args: RAW_FLAGS });
  try {
    await app.waitForOutput(/Document rendering service running at/, 180_000);
    const { organisation } = await db.database.transaction((r) =>
      provisionOrganisation(r, { name: 'Bench', tier: 'pro', includedPagesPerMonth: 0, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 }),
    );
    await db.database.workspaceUsers.create({ organisationId: organisation.id, email: 'bench@example.com', name: 'Bench', role: 'editor', passwordHash: await hashPassword(PASSWORD) });
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    await page.goto(`http://localhost:${port}/workspace/`);
    await page.waitForSelector('[data-test=email]');
    await page.type('[data-test=email]', 'bench@example.com');
    await page.type('[data-test=password]', PASSWORD);
    await page.click('[data-test=sign-in]');
    await page.waitForSelector('[data-test=new-example] option[value=invoice]');
    await page.type('[data-test=new-name]', 'Invoice');
    await page.select('[data-test=new-example]', 'invoice');
    await page.click('[data-test=create]');
    await page.waitForSelector('[data-test=pages] canvas.page', { timeout: 180_000 });
    // the cursor at the end of the title's text
    await page.$eval('[data-test=dsl-editor] .cm-content', (el) => {
      type View = { state: { doc: { toString(): string } }; dispatch(spec: unknown): void; focus(): void };
      const view = (el as unknown as { cmTile: { root: { view: View } } }).cmTile.root.view;
      const at = view.state.doc.toString().indexOf('{{ number }}"') + '{{ number }}'.length;
      view.dispatch({ selection: { anchor: at } });
      view.focus();
    });
    const latencies: number[] = [];
    for (let i = 0; i < EDITS + 2; i++) {
      const before = await page.$eval('[data-test=pages]', (el) => Number(el.getAttribute('data-rendered') ?? 0));
      // one character typed, then taken back: every edit is one keystroke
      if (i % 2 === 0) await page.keyboard.type('x');
      else await page.keyboard.press('Backspace');
      const typedAt = await page.evaluate(() => Date.now());
      await page.waitForFunction((b: number) => Number(document.querySelector('[data-test=pages]')?.getAttribute('data-rendered') ?? 0) > b, { timeout: 120_000, polling: 'mutation' }, before);
      const drawnAt = await page.$eval('[data-test=pages]', (el) => Number(el.getAttribute('data-rendered')));
      // the first two warm the render service's caches for this template
      if (i >= 2) latencies.push(drawnAt - typedAt);
    }
    const [one, five] = loadavg();
    console.log(`invoice preview, keystroke → every page drawn, ${latencies.length} edits (includes the 250 ms debounce):`);
    console.log(`  p50 ${median(latencies)} ms, p95 ${percentile(latencies, 0.95)} ms, min ${Math.min(...latencies)} ms, max ${Math.max(...latencies)} ms`);
    console.log(`  load average ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min)`);
  } finally {
    await browser.close();
    await app.stop();
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

runBench(main);
