import { readFile } from 'node:fs/promises';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CompiledDocument, compileDocument, Template } from '@docrender/template-dsl';
import { pagePngs, pdfFontNames } from '../../test/pdf-tools';
import { printCompiled, startPrintPool } from '../../test/print-pool';
import { EXAMPLES_DIR, readExample } from '../../test/render-service.harness';
import type { BrowserPool } from './browser-pool';
import { locateChromium } from './chromium-executable';
import { printPdfOnPage } from './page-printer';
import { serviceFontConfigFile } from './service-fonts';

/** The certificate with its custom font (Great Vibes, a WOFF2 file of the example) as the render service passes it. */
async function certificate(): Promise<CompiledDocument> {
  const { template, data } = readExample('certificate');
  const font = await readFile(path.join(EXAMPLES_DIR, 'certificate/fonts/great-vibes-latin-400-normal.woff2'));
  const customFonts = [{ family: 'Great Vibes', weight: 400, style: 'normal' as const, dataUri: `data:font/woff2;base64,${font.toString('base64')}` }];
  return compileDocument({ template: template as Template, data, customFonts });
}

function example(name: string, language?: string): CompiledDocument {
  const { template, data, translations } = readExample(name);
  return compileDocument({ template: template as Template, data, translations, language });
}

describe('issue 4: documents are printed without a screen layout (laidOutForPrintOnly)', () => {
  let pool: BrowserPool;
  let plain: Browser;

  /** What a puppeteer user gets: the document loaded as it is (laid out for the screen), then page.pdf(). */
  async function printedAsLoaded(compiled: CompiledDocument): Promise<Buffer> {
    const page = await plain.newPage();
    try {
      await page.setJavaScriptEnabled(false);
      await page.setContent(compiled.html, { waitUntil: 'load' });
      // faces only the bands use (declared in the document, which itself does not use them) are loaded as the printer does
      await page.evaluate('Promise.all(Array.from(document.fonts, (face) => face.load().catch(() => undefined))).then(() => undefined)');
      const bands = compiled.headerHtml !== null || compiled.footerHtml !== null;
      const pdf = await page.pdf({
        printBackground: true,
        preferCSSPageSize: true,
        tagged: compiled.tagged,
        displayHeaderFooter: bands,
        headerTemplate: compiled.headerHtml ?? '<span></span>',
        footerTemplate: compiled.footerHtml ?? '<span></span>',
      });
      return Buffer.from(pdf);
    } finally {
      await page.close();
    }
  }

  beforeAll(async () => {
    const executablePath = await locateChromium(process.env.PUPPETEER_EXECUTABLE_PATH);
    // the same fonts as the pool's browsers (decision 0030): this test is about how the document is loaded
    const env = { ...process.env, FONTCONFIG_FILE: serviceFontConfigFile() };
    plain = await puppeteer.launch({ executablePath, headless: true, pipe: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], env });
    // a fresh pool: the first document below is its browser's first render, with no font in any cache yet
    pool = await startPrintPool('docrender render-service (print test)');
  });

  afterAll(async () => {
    await pool?.close();
    await plain?.close();
  });

  it('prints every page as the document loaded on screen prints it: custom and built-in fonts, page background, header and footer', async () => {
    const documents: Array<[string, CompiledDocument, string[]]> = [
      ['certificate (custom font, page background)', await certificate(), ['GreatVibes-Regular', 'Inter-SemiBold', 'NotoSerif-Regular', 'RobotoMono-Regular']],
      ['letter in German (two built-in families)', example('letter', 'de'), ['Inter-Bold', 'Inter-Regular', 'NotoSerif-Bold', 'NotoSerif-Regular']],
      ['invoice (QR code, header and footer)', example('invoice'), ['Inter-Bold', 'Inter-Regular']],
    ];
    for (const [name, compiled, fonts] of documents) {
      // the same bands on every page as page.pdf() below prints them (the letter's pages differ: issue 20 prints those
      // in groups, page-roles.int-spec.ts); this test is about how the document is loaded
      const printed = await printCompiled(pool, { ...compiled, pageVariant: null });
      expect({ name, fonts: await pdfFontNames(printed) }).toEqual({ name, fonts });
      const pages = await pagePngs(printed, 50);
      const expected = await pagePngs(await printedAsLoaded(compiled), 50);
      expect({ name, pages: pages.length }).toEqual({ name, pages: expected.length });
      pages.forEach((png, index) => expect({ name, page: index + 1, same: png.equals(expected[index]) }).toEqual({ name, page: index + 1, same: true }));
    }
  });

  it('loads the document without laying it out for the screen', async () => {
    const compiled = example('invoice');
    const screenBoxes = await pool.run({
      isolation: 'reused-page',
      javaScript: false,
      deadline: Date.now() + 60_000,
      budgetMs: 60_000,
      work: async (page) => {
        await printPdfOnPage(page, { html: compiled.html, tagged: false, headerHtml: compiled.headerHtml, footerHtml: compiled.footerHtml });
        return page.evaluate(() => ({ root: document.documentElement.getClientRects().length, body: document.body.getClientRects().length }));
      },
    });
    expect(screenBoxes).toEqual({ root: 0, body: 0 });
  });
});
