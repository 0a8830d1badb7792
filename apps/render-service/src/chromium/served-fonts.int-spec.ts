import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CompiledDocument, compileDocument, Template } from '@docrender/template-dsl';
import { printedLook } from '../../test/pdf-tools';
import { printCompiled, startPrintPool } from '../../test/print-pool';
import { EXAMPLES_DIR, readExample } from '../../test/render-service.harness';
import type { BrowserPool } from './browser-pool';
import { printPdfOnPage } from './page-printer';

type Fonts = 'inline' | 'served';

async function compiled(name: string, builtinFonts: Fonts): Promise<CompiledDocument> {
  const { template, data, translations } = readExample(name);
  const customFonts =
    name === 'certificate'
      ? [{ family: 'Great Vibes', weight: 400, style: 'normal' as const, dataUri: `data:font/woff2;base64,${(await readFile(path.join(EXAMPLES_DIR, 'certificate/fonts/great-vibes-latin-400-normal.woff2'))).toString('base64')}` }]
      : [];
  return compileDocument({ template: template as Template, data, translations, language: name === 'letter' ? 'de' : undefined, customFonts, builtinFonts });
}

describe('decision 0020: built-in faces served from memory by the pool print as the inlined faces do', () => {
  let pool: BrowserPool;

  beforeAll(async () => {
    // a fresh pool: the first served document below is its page's first, with no face in Blink's memory cache yet
    pool = await startPrintPool('docrender render-service (served fonts test)');
  });

  afterAll(async () => {
    await pool?.close();
  });

  it.each([
    ['invoice', 'header and footer in a face the body uses too, a bold face only the body uses'],
    ['letter', 'two built-in families, pages that differ (printed in groups)'],
    ['certificate', 'a custom font inline beside served built-in faces, a page background'],
  ])('%s (%s): the same text, fonts and page images, first from a fetch and then from the memory cache', async (name) => {
    const inline = await printedLook(await printCompiled(pool, await compiled(name, 'inline')));
    const served = await compiled(name, 'served');
    expect(served.html).not.toEqual((await compiled(name, 'inline')).html);
    const first = await printedLook(await printCompiled(pool, served));
    const again = await printedLook(await printCompiled(pool, served));
    expect(first.fonts).toEqual(inline.fonts);
    expect(first.text).toEqual(inline.text);
    expect(first.pages.length).toEqual(inline.pages.length);
    first.pages.forEach((page, index) => expect({ page: index + 1, same: page === inline.pages[index] }).toEqual({ page: index + 1, same: true }));
    expect(again).toEqual(first);
  });

  it('a page of a fresh context (a document with JavaScript) serves them too', async () => {
    const served = await compiled('invoice', 'served');
    const inline = await printedLook(await printCompiled(pool, await compiled('invoice', 'inline')));
    const pdf = await pool.run({
      isolation: 'fresh-context',
      javaScript: true,
      deadline: Date.now() + 60_000,
      budgetMs: 60_000,
      work: (page) => printPdfOnPage(page, { html: served.html, tagged: served.tagged, headerHtml: served.headerHtml, footerHtml: served.footerHtml }),
    });
    expect(await printedLook(pdf)).toEqual(inline);
  });
});
