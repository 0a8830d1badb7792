import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { RenderIssueType } from '@docrender/contracts';
import { JsonLogger } from '@docrender/observability';
import { FilesystemBlobStore } from '@docrender/storage';
import { compileDocument, imageReferencesOf, Template } from '@docrender/template-dsl';
import { appCommandJson, createTestDatabase, ensureBuilt, runAppCommand, TEST_API_KEY_PEPPER, type TestDatabase } from '@docrender/testing';
import { firstPagePng } from '../../test/pdf-tools';
import { decodePng } from '../../test/png-pixels';
import { printCompiled, startPrintPool } from '../../test/print-pool';
import type { BrowserPool } from '../chromium/browser-pool';
import { ImageResolver } from './image-resolver';

const ADMIN_CLI = 'apps/admin-cli/src/main.js';
const RED_SQUARE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#ff0000"/></svg>';
const BLUE_SQUARE = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0000ff"/></svg>';

// Each CLI run is a fresh Node process (about a second).
jest.setTimeout(120_000);

/** Pixels of the page that are clearly the given colour. */
function countPixels(png: Buffer, colour: 'red' | 'blue'): number {
  const { width, height, rgb } = decodePng(png);
  let count = 0;
  for (let i = 0; i < width * height; i++) {
    const [r, g, b] = [rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2]];
    if (colour === 'red' ? r > 200 && g < 60 && b < 60 : b > 200 && r < 60 && g < 60) count++;
  }
  return count;
}

describe('issue 21 item 6: organisation assets stored with the admin CLI and the seed file render as asset:<name>', () => {
  let db: TestDatabase;
  let dir: string;
  let pool: BrowserPool;

  const settings = () => ({ DATABASE_URL: db.url, API_KEY_PEPPER: TEST_API_KEY_PEPPER, BLOB_DIR: path.join(dir, 'blobs'), INIT_CWD: dir });
  const cli = (...args: string[]) => runAppCommand(ADMIN_CLI, args, settings());
  const ok = (...args: string[]) => appCommandJson(ADMIN_CLI, args, settings());

  beforeAll(async () => {
    await ensureBuilt();
    db = await createTestDatabase({ migrate: false });
    dir = await mkdtemp(path.join(os.tmpdir(), 'docrender-assets-'));
    await writeFile(path.join(dir, 'logo.svg'), RED_SQUARE);
    await writeFile(path.join(dir, 'stamp.svg'), BLUE_SQUARE);
    await writeFile(path.join(dir, 'notes.txt'), 'not an image');
    pool = await startPrintPool('docrender render-service (assets test)');
  });
  afterAll(async () => {
    await pool?.close();
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('issue 21 item 6: add-asset and a seed file store images; a template prints them; remove-asset takes one away', async () => {
    const created = await ok('create-org', '--name', 'Asset Ltd');
    const organisationId = (created.organisation as { id: string }).id;

    expect(await ok('add-asset', '--org', organisationId, '--name', 'brand/logo', '--file', 'logo.svg')).toEqual({
      organisationId,
      name: 'brand/logo',
      reference: 'asset:brand/logo',
      contentType: 'image/svg+xml',
      bytes: RED_SQUARE.length,
    });
    // not an image, and a name the DSL could not reference: usage errors (exit 2), nothing stored
    expect(await cli('add-asset', '--org', organisationId, '--name', 'notes', '--file', 'notes.txt')).toMatchObject({ code: 2, stderr: expect.stringContaining('not a PNG, JPEG') });
    expect(await cli('add-asset', '--org', organisationId, '--name', '../escape', '--file', 'logo.svg')).toMatchObject({ code: 2, stderr: expect.stringContaining('--name') });

    const seed = { organisations: [{ id: organisationId, name: 'Asset Ltd', assets: [{ name: 'stamp', file: 'stamp.svg' }] }] };
    await writeFile(path.join(dir, 'seed.json'), JSON.stringify(seed));
    const seeded = (await ok('seed', 'seed.json')) as { organisations: { id: string; assets: unknown[] }[] };
    expect(seeded.organisations[0]).toMatchObject({ id: organisationId, assets: [{ name: 'stamp', reference: 'asset:stamp', contentType: 'image/svg+xml' }] });
    // idempotent: the same file again gives the same answer
    expect(await ok('seed', 'seed.json')).toEqual(seeded);

    const template = {
      body: [
        { type: 'image', id: 'logo', source: 'asset:brand/logo', width: '40mm', height: '40mm' },
        { type: 'image', id: 'stamp', source: '{{ stamp }}', width: '40mm', height: '40mm' },
      ],
    } as Template;
    const data = { stamp: 'asset:stamp' };
    const resolver = new ImageResolver(
      await FilesystemBlobStore.open(path.join(dir, 'blobs')),
      { policy: { allowHttp: false, allowPrivate: false }, fetchTimeoutMs: 2000, maxBytes: 1024 * 1024 },
      new JsonLogger('assets-test', 'error', {}, () => undefined),
    );
    const render = async () => {
      const images = await resolver.resolveAll(imageReferencesOf(template, data), organisationId, Date.now() + 10_000);
      return compileDocument({ template, data, images });
    };

    const compiled = await render();
    expect(compiled.issues).toEqual([]);
    const page = await firstPagePng(await printCompiled(pool, compiled), 50);
    // 40 mm squares at 50 dpi are about 79 × 79 pixels
    expect(countPixels(page, 'red')).toBeGreaterThan(5000);
    expect(countPixels(page, 'blue')).toBeGreaterThan(5000);

    expect(await ok('remove-asset', '--org', organisationId, '--name', 'stamp')).toEqual({ organisationId, name: 'stamp', removed: true });
    const without = await render();
    expect(without.issues.map((i) => [i.type, i.elementId, i.description])).toEqual([
      [RenderIssueType.UnresolvedImage, 'stamp', "The image cannot be shown: asset:stamp could not be loaded (the organisation has no asset named 'stamp')."],
    ]);
  });
});
