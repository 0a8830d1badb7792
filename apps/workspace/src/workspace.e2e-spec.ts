import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import {
  createTestDatabase,
  ensureBuilt,
  freePort,
  REPO_ROOT,
  startAppProcess,
  startCallbackReceiver,
  waitFor,
  type AppProcess,
  type CallbackReceiver,
  type TestDatabase,
} from '@docrender/testing';
import { FilesystemBlobStore } from '@docrender/storage';

const run = promisify(execFile);

jest.setTimeout(300_000);

/** Runs the admin CLI against the test database and answers its JSON. */
async function admin<T>(databaseUrl: string, ...args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [path.join(REPO_ROOT, 'dist/apps/admin-cli/src/main.js'), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ALLOW_DEVELOPMENT_SECRETS: 'true' },
  });
  return JSON.parse(stdout) as T;
}

type EditorHandle = { state: { doc: { toString(): string } }; dispatch(spec: unknown): void; focus(): void };

/** The text of the code editor inside `host` (CodeMirror draws only the lines in view, so it is read from its state). */
const editorText = (page: Page, host: string): Promise<string> =>
  page.$eval(`${host} .cm-content`, (el) => (el as unknown as { cmTile: { root: { view: EditorHandle } } }).cmTile.root.view.state.doc.toString());

/** Selects the first occurrence of `text` in the code editor and focuses it, as a person would with the mouse. */
async function selectInEditor(page: Page, host: string, text: string): Promise<void> {
  await page.$eval(
    `${host} .cm-content`,
    (el, wanted) => {
      const view = (el as unknown as { cmTile: { root: { view: EditorHandle } } }).cmTile.root.view;
      const from = view.state.doc.toString().indexOf(wanted);
      if (from < 0) throw new Error(`${wanted} is not in the editor`);
      view.dispatch({ selection: { anchor: from, head: from + wanted.length }, scrollIntoView: true });
      view.focus();
    },
    text,
  );
}

/** Waits until the issues beside the preview satisfy `test` (the preview runs by itself after typing stops). */
async function issuesUntil(page: Page, pattern: string, present: boolean): Promise<void> {
  await page.waitForFunction(
    (p: string, want: boolean) => {
      const texts = Array.from(document.querySelectorAll('[data-test=issues] li'), (li) => li.textContent ?? '');
      const rendered = /page/.test(document.querySelector('[data-test=preview-state]')?.textContent ?? '');
      return rendered && texts.some((t) => new RegExp(p).test(t)) === want;
    },
    { timeout: 180_000, polling: 250 },
    pattern,
    present,
  );
}

/**
 * `npm run docs:workspace-screenshots` sets WORKSPACE_SCREENSHOTS_DIR (docs/images/workspace): the run then also saves
 * the main screens there as PNGs for docs/workspace.md. A plain test run writes nothing.
 */
const SCREENSHOTS_DIR = process.env.WORKSPACE_SCREENSHOTS_DIR;

async function screenshot(page: Page, name: string, scale = 0.75): Promise<void> {
  if (SCREENSHOTS_DIR === undefined) return;
  await mkdir(path.resolve(REPO_ROOT, SCREENSHOTS_DIR), { recursive: true });
  const { width, height } = page.viewport() ?? { width: 1400, height: 1000 };
  // scaled down from the window's size: readable, and small enough to keep in the repository (≤ ~150 KB each)
  await page.screenshot({ path: path.resolve(REPO_ROOT, SCREENSHOTS_DIR, `${name}.png`) as `${string}.png`, clip: { x: 0, y: 0, width, height, scale } });
}

const issueTexts = (page: Page): Promise<string[]> => page.$$eval('[data-test=issues] li', (items) => items.map((li) => li.textContent ?? ''));

/**
 * Issue 35 item 7: the built workspace, served by `npm start`'s one-process mode under /workspace, driven in headless
 * Chromium as an author uses it — sign in (a user made with the admin CLI), create a template from the invoice
 * example, break a binding and see the issue beside the real PDF preview, undo it, publish, compare a new draft with
 * the published version, create an API key in the settings and render the published version through /v1 with it (its
 * last use then shown), see which templates use a font family, upload assets and see them, invite an editor who
 * accepts the link and is signed in.
 */
describe('the template workspace in a browser (issue 35 item 7)', () => {
  let db: TestDatabase;
  let dir: string;
  let app: AppProcess;
  let receiver: CallbackReceiver;
  let browser: Browser;
  let page: Page;
  let base: string;
  let credentials: { email: string; password: string };
  let organisationId: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    db = await createTestDatabase();
    dir = await mkdtemp(path.join(tmpdir(), 'docrender-workspace-e2e-'));
    const port = await freePort();
    receiver = await startCallbackReceiver([]);
    // localhost: a secure context, where the browser keeps the Secure __Host- session cookie over plain HTTP
    base = `http://localhost:${port}`;
    app = startAppProcess('apps/standalone/src/main.js', { PORT: String(port), DATABASE_URL: db.url, BLOB_DIR: path.join(dir, 'blobs'), SEED_DEMO: 'false',
      RENDER_BROWSERS: '1',
      // item 5: callbacks go to the receiver on 127.0.0.1 over HTTP, and their retries follow at once
      EGRESS_ALLOW_PRIVATE: 'true',
      EGRESS_ALLOW_HTTP: 'true',
      WEBHOOK_BACKOFF_SCALE: '0.01',
    });
    await app.waitForOutput(/Document rendering service running at/, 180_000);
    const { organisation } = await admin<{ organisation: { id: string } }>(db.url, 'create-org', '--name', 'Acme <script>alert(1)</script>', '--tier', 'growth');
    const user = await admin<{ email: string; password: string }>(db.url, 'create-user', '--org', organisation.id, '--email', 'owner@acme.test', '--name', 'Olivia Owner', '--role', 'owner');
    expect(user.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    credentials = { email: user.email, password: user.password };
    organisationId = organisation.id;
    browser = await puppeteer.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 1000 });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    // a refused script, style or worker is a Content-Security-Policy violation the page reports
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) pageErrors.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await receiver?.close();
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('sign in, create from the invoice example, break a binding and see its issue, undo, publish, compare a draft, create a key and render through /v1 (its last use shown), fonts and the templates using them, assets, invite an editor who joins', async () => {
    await page.goto(`${base}/workspace/`);
    await page.waitForSelector('[data-test=email]');
    await page.type('[data-test=email]', credentials.email);
    await screenshot(page, 'sign-in');
    await page.type('[data-test=password]', credentials.password);
    await page.click('[data-test=sign-in]');
    await page.waitForSelector('[data-test=who]');
    expect(await page.$eval('[data-test=who]', (el) => el.textContent)).toBe('Olivia Owner (owner)');

    // a template name with markup stays text (item 6)
    await page.waitForSelector('[data-test=new-example] option[value=invoice]');
    await page.type('[data-test=new-name]', 'Invoice <img src=x onerror=alert(1)>');
    await page.select('[data-test=new-example]', 'invoice');
    await page.click('[data-test=create]');
    await page.waitForSelector('[data-test=dsl-editor] .cm-content');
    expect(await page.$eval('.editor-page h1', (el) => el.textContent)).toBe('Invoice <img src=x onerror=alert(1)>');
    expect(await page.$('.editor-page h1 img')).toBeNull();
    await page.waitForSelector('[data-test=pages] canvas.page', { timeout: 180_000 });
    const templateId = /#\/templates\/([0-9a-f-]{36})\/versions\/1$/.exec(page.url())?.[1];
    expect(templateId).toBeDefined();

    // break a binding: the render names the element, and the issue takes the editor to it
    const original = await editorText(page, '[data-test=dsl-editor]');
    expect(original).toContain('{{ seller.name }}');
    await selectInEditor(page, '[data-test=dsl-editor]', 'seller.name }}');
    await page.keyboard.type('seller.nmae }}');
    await issuesUntil(page, 'MissingBinding · header-seller', true);
    await screenshot(page, 'editor', 0.6); // the drawn PDF compresses least
    const broken = await issueTexts(page);
    expect(broken.find((text) => text.includes('header-seller'))).toContain('seller.nmae');
    expect(await page.$$eval('[data-test=pages] canvas.page', (c) => c.length)).toBeGreaterThanOrEqual(1);
    const issueButton = await page.waitForSelector('[data-test=issue]:not([disabled])');
    await issueButton?.click();
    const selected = await page.$eval('[data-test=dsl-editor] .cm-content', (el) => {
      const view = (el as unknown as { cmTile: { root: { view: { state: { sliceDoc(a: number, b: number): string; selection: { main: { from: number; to: number } } } } } } }).cmTile.root.view;
      return view.state.sliceDoc(view.state.selection.main.from, view.state.selection.main.to);
    });
    expect(selected).toMatch(/"id":\s*"header-seller"/);

    // undo (the editor's history: Ctrl-Z, once per group of typing) brings the binding back, and the issue goes
    for (let i = 0; i < 20 && (await editorText(page, '[data-test=dsl-editor]')) !== original; i++) {
      await page.keyboard.down('Control');
      await page.keyboard.press('z');
      await page.keyboard.up('Control');
    }
    expect(await editorText(page, '[data-test=dsl-editor]')).toBe(original);
    await issuesUntil(page, 'header-seller', false);

    // publish
    await page.click('[data-test=publish]');
    await page.waitForFunction(() => /published/.test(document.querySelector('[data-test=version]')?.textContent ?? ''), { timeout: 60_000 });
    expect(await page.$$eval('[data-test=versions] .badge.published', (b) => b.map((x) => x.textContent ?? ''))).toEqual([expect.stringContaining('by owner@acme.test')]);

    // item 2: a new draft from version 1 with a document-name template, compared with version 1
    const openVersions = () => page.$eval('[data-test=versions]', (el) => ((el.closest('details') as HTMLDetailsElement).open = true));
    await openVersions();
    await page.click('[data-test=draft-from-1]');
    await page.waitForFunction(() => document.querySelector('[data-test=version]')?.textContent === 'version 2 · draft');
    await page.type('[data-test=document-name]', 'Invoice {{ number }}');
    await page.click('[data-test=save]');
    await page.waitForFunction(() => /^saved /.test(document.querySelector('[data-test=status]')?.textContent ?? ''));
    await openVersions();
    await page.click('[data-test=compare-1]');
    await page.waitForSelector('table[data-test=diff-document-name]');
    expect(await page.$$eval('table[data-test=diff-document-name] tr', (rows) => rows.map((r) => r.className + ' ' + (r.querySelector('.text')?.textContent ?? '')))).toEqual([
      'added Invoice {{ number }}',
    ]);
    expect(await page.$eval('[data-test=diff-dsl]', (el) => el.textContent)).toBe('No change.');

    // an API key made in the settings renders the published version through /v1
    await page.click('[data-test=settings-link]');
    await page.waitForSelector('[data-test=key-label]');
    await page.type('[data-test=key-label]', 'from the workspace');
    await page.click('[data-test=create-key]');
    await page.waitForSelector('[data-test=new-key]');
    const key = await page.$eval('[data-test=new-key]', (el) => el.textContent ?? '');
    expect(key).toMatch(/^service_test_/);
    const rendered = await fetch(`${base}/v1/render/${templateId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, Accept: 'application/pdf', 'Content-Type': 'application/json' },
      body: await readFile(path.join(REPO_ROOT, 'examples/invoice/request.json')),
    });
    expect(rendered.status).toBe(200);
    const renderedPdf = Buffer.from(await rendered.arrayBuffer());
    expect(renderedPdf.subarray(0, 5).toString()).toBe('%PDF-');

    // the key is not shown again: a reload lists it without the key
    await page.reload();
    await page.waitForSelector('[data-test=api-keys] tbody tr');
    expect(await page.content()).not.toContain(key);

    // item 4: the render was the key's last use (recorded off the request's path), and the list shows it
    await page.waitForFunction(
      async () => ((await (await fetch('/workspace/api/organisation/api-keys')).json()) as { items: { lastUsedAt: string | null }[] }).items.some((k) => k.lastUsedAt !== null),
      { timeout: 30_000, polling: 250 },
    );
    await page.reload();
    await page.waitForSelector('[data-test=key-last-used]');
    expect(await page.$eval('[data-test=key-last-used]', (el) => el.textContent)).not.toBe('never');

    // rotate the webhook secret: the previous one is shown as still signing (the secret loads beside the keys)
    await page.waitForSelector('[data-test=active-secret]');
    const active = await page.$eval('[data-test=active-secret]', (el) => el.textContent ?? '');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('[data-test=rotate]');
    await page.waitForSelector('[data-test=previous-secret]');
    await screenshot(page, 'settings');
    expect(await page.$eval('[data-test=previous-secret]', (el) => el.textContent)).toBe(active);
    expect(await page.$eval('[data-test=active-secret]', (el) => el.textContent)).not.toBe(active);

    // item 5: an async job's completion callback fails five times and is abandoned; the owner sees its attempts in the
    // delivery log, redelivers it, and the receiver gets it under the same delivery id signed with both secrets
    const rotated = await page.$eval('[data-test=active-secret]', (el) => el.textContent ?? '');
    receiver.setSecrets([rotated, active]);
    receiver.answer('/hooks/down', 500);
    const request = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples/invoice/request.json'), 'utf8')) as { documents: unknown[] };
    const enqueued = await fetch(`${base}/v1/render/${templateId}/async`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ documents: request.documents.slice(0, 1), callbackUrl: `${receiver.url}/hooks/down`, includeDocument: false }),
    });
    expect(enqueued.status).toBe(202);
    const completion = await waitFor(
      'the abandoned completion callback',
      () => {
        const got = receiver.received.filter((r) => r.event === 'render.completed');
        return got.length >= 5 ? got[0].deliveryId : undefined;
      },
      120_000,
    );
    await page.click('[data-test=deliveries-link]');
    await page.waitForFunction(
      async (id: string) => {
        const list = (await (await fetch('/workspace/api/webhook-deliveries')).json()) as { items: { deliveryId: string; state: string }[] };
        return list.items.some((d) => d.deliveryId === id && d.state === 'abandoned');
      },
      { timeout: 60_000, polling: 250 },
      completion,
    );
    await page.reload();
    await page.waitForSelector(`[data-test=delivery-link]`);
    const links = await page.$$eval('[data-test=delivery-link]', (as) => as.map((a) => a.textContent));
    expect(links).toContain(completion);
    await page.goto(`${base}/workspace/#/deliveries/${completion}`);
    await page.waitForSelector('[data-test=redeliver]');
    expect(await page.$$eval('[data-test=attempt-status]', (cells) => cells.map((c) => c.textContent))).toEqual(['500', '500', '500', '500', '500']);
    receiver.answer('/hooks/down', 204);
    await page.click('[data-test=redeliver]');
    const again = await waitFor('the redelivered callback', () => {
      const got = receiver.received.filter((r) => r.deliveryId === completion);
      return got.length >= 6 ? got[5] : undefined;
    });
    expect(again.signatureFailure).toBeNull();
    expect(again.signatureHeader.match(/v1=/g)).toHaveLength(2);
    await page.waitForFunction(
      async (id: string) => ((await (await fetch(`/workspace/api/webhook-deliveries/${id}`)).json()) as { state: string }).state === 'delivered',
      { timeout: 30_000, polling: 250 },
      completion,
    );
    await page.reload();
    await page.waitForFunction(() => document.querySelector('[data-test=delivery-state]')?.textContent === 'delivered');
    expect(await page.$$eval('[data-test=attempt-status]', (cells) => cells.map((c) => c.textContent))).toEqual(['500', '500', '500', '500', '500', '204']);
    await screenshot(page, 'webhook-delivery');

    // item 4: the documents the renders stored, downloadable through the workspace, and the period's usage
    await page.click('[data-test=documents-link]');
    await page.waitForSelector('[data-test=document] [data-test=download]');
    const download = await page.$eval('[data-test=document] [data-test=download]', async (a) => {
      const res = await fetch((a as HTMLAnchorElement).href);
      return { type: res.headers.get('content-type'), head: new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5)) };
    });
    expect(download).toEqual({ type: 'application/pdf', head: '%PDF-' });
    await page.select('[data-test=document-environment]', 'production');
    await page.click('[data-test=document-filter]');
    await page.waitForFunction(() => document.querySelector('[data-test=document-count]')?.textContent === 'no documents');
    await page.click('[data-test=usage-link]');
    await page.waitForSelector('[data-test=pages-included]');
    expect(await page.$eval('[data-test=pages-used]', (el) => el.textContent)).toBe('0'); // test renders take no credit

    // item 4: an owner uploads a custom font file; the list shows it beside the built-in families
    await page.click('[data-test=fonts-link]');
    await page.waitForSelector('[data-test=font-builtin]');
    await page.type('[data-test=font-family]', 'Signature Script');
    const fontInput = await page.waitForSelector('[data-test=font-file]');
    await (fontInput as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(path.join(REPO_ROOT, 'examples/certificate/fonts/great-vibes-latin-400-normal.woff2'));
    await page.click('[data-test=upload-font]');
    await page.waitForSelector('[data-test=font-custom]');
    expect(await page.$eval('[data-test=font-custom]', (row) => row.textContent)).toBe('Signature Scriptcustom400 normal (woff2)no template');
    // each family names the templates (and versions) using it: the invoice sets Inter
    const inter = await page.$$eval('[data-test=font-builtin]', (rows) => rows.find((r) => r.firstElementChild?.textContent === 'Inter')?.querySelector('[data-test=font-used-by]')?.textContent);
    expect(inter).toBe('Invoice <img src=x onerror=alert(1)>: v1, v2 (draft)');
    await screenshot(page, 'fonts');

    // item 4: an owner uploads a logo and a PDF as assets; the logo is shown as an image, the PDF drawn page by page
    await writeFile(path.join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" rx="6" fill="#1d4ed8"/><text x="60" y="26" font-size="16" text-anchor="middle" fill="#fff">ACME</text></svg>');
    await writeFile(path.join(dir, 'terms.pdf'), renderedPdf);
    await page.click('[data-test=assets-link]');
    await page.waitForSelector('[data-test=no-assets]');
    for (const [name, file] of [['brand/logo.svg', 'logo.svg'], ['legal/terms.pdf', 'terms.pdf']]) {
      await page.type('[data-test=asset-name]', name);
      const assetInput = await page.waitForSelector('[data-test=asset-file]');
      await (assetInput as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(path.join(dir, file));
      await page.click('[data-test=upload-asset]');
      await page.waitForFunction((wanted: string) => Array.from(document.querySelectorAll('[data-test=asset] td:first-child'), (td) => td.textContent).includes(wanted), {}, name);
    }
    expect(await page.$$eval('[data-test=asset]', (rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent).slice(0, 3)))).toEqual([
      ['brand/logo.svg', 'asset:brand/logo.svg', 'image/svg+xml'],
      ['legal/terms.pdf', 'asset:legal/terms.pdf', 'application/pdf'],
    ]);
    const showButtons = await page.$$('[data-test=show-asset]');
    await showButtons[1].click();
    await page.waitForSelector('[data-test=asset-pages] canvas.page');
    await showButtons[0].click();
    await page.waitForFunction(() => {
      const image = document.querySelector('[data-test=asset-image]') as HTMLImageElement | null;
      return image !== null && image.complete && image.naturalWidth === 120;
    });
    await screenshot(page, 'assets');

    await page.click('[data-test=settings-link]');
    await page.waitForSelector('[data-test=invite-email]');

    // item 1: invite an editor; the link is shown once and the invitation is pending
    await page.type('[data-test=invite-email]', 'eda@acme.test');
    await page.select('[data-test=invite-role]', 'editor');
    await page.click('[data-test=invite]');
    await page.waitForSelector('[data-test=invitation-link]');
    const link = await page.$eval('[data-test=invitation-link]', (el) => el.textContent ?? '');
    expect(link).toMatch(new RegExp(`^${base}/workspace/#/invitation/[A-Za-z0-9_-]{43}$`));
    await page.waitForFunction(() => /eda@acme\.test/.test(document.querySelector('[data-test=invitations] tbody')?.textContent ?? ''));

    // sign out revokes the session
    await page.click('[data-test=sign-out]');
    await page.waitForSelector('[data-test=email]');

    // the invitee opens the link, chooses a name and a password, and is signed in as an editor of the organisation
    await page.goto(link);
    await page.waitForSelector('[data-test=invitee-name]');
    await page.type('[data-test=invitee-name]', 'Eda Editor');
    await page.type('[data-test=invitee-password]', 'a long enough password');
    await page.click('[data-test=accept-invitation]');
    await page.waitForFunction(() => document.querySelector('[data-test=who]')?.textContent === 'Eda Editor (editor)');
    await page.waitForSelector('[data-test=template-link]');
    expect(await page.$$eval('[data-test=template-link]', (links) => links.map((a) => a.textContent))).toEqual(['Invoice <img src=x onerror=alert(1)>']);
    await page.click('[data-test=sign-out]');
    await page.waitForSelector('[data-test=email]');
    expect(pageErrors).toEqual([]);
  });

  it('bounded cost: with more assets than a page (201 stored), the assets page shows the first 200 by name, says more follow, and its next link shows the rest', async () => {
    // stored beside the running app, as the admin CLI would (one-process mode keeps blobs in BLOB_DIR)
    const blobs = await FilesystemBlobStore.open(path.join(dir, 'blobs'));
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    for (let i = 0; i <= 200; i++) await blobs.put(`orgs/${organisationId}/assets/gallery/${String(i).padStart(3, '0')}.png`, png, 'image/png');

    // a full load: from the signed-out page the test before left, a change of the hash alone keeps its sign-in form
    // until the router replaces it, and on a busy machine the credentials could be typed into the form being replaced
    await page.goto('about:blank');
    await page.goto(`${base}/workspace/#/assets`);
    await page.waitForSelector('[data-test=email]');
    await page.type('[data-test=email]', credentials.email);
    await page.type('[data-test=password]', credentials.password);
    await page.click('[data-test=sign-in]');
    await page.waitForSelector('[data-test=assets-pager]');
    const names = () => page.$$eval('[data-test=asset] td:first-child', (cells) => cells.map((td) => td.textContent ?? ''));
    const first = await names();
    expect(first).toHaveLength(200);
    expect(first).toEqual([...first].sort());
    expect(await page.$eval('[data-test=assets-range]', (el) => el.textContent)).toBe('The first 200 assets by name; more follow');
    expect(await page.$('[data-test=first-assets]')).toBeNull();

    const last = first[199];
    await page.click('[data-test=next-assets]');
    await page.waitForFunction((after: string) => document.querySelector('[data-test=assets-range]')?.textContent?.endsWith(`assets after ${after}`) === true, {}, last);
    const rest = await names();
    expect(rest).toContain('gallery/200.png');
    expect(rest.every((name) => name > last)).toBe(true);
    expect(await page.$('[data-test=next-assets]')).toBeNull();
    await page.click('[data-test=first-assets]');
    await page.waitForFunction(() => document.querySelector('[data-test=assets-range]')?.textContent === 'The first 200 assets by name; more follow');
    expect(pageErrors).toEqual([]);
  });
});
