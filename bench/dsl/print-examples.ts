/**
 * Prints the DSL examples with real Chromium the way the render service prints them (its printPdfOnPage: page
 * variants — first/last/odd/even headers, footers, backgrounds and watermarks — printed in groups, the break rows of
 * page-aware tables placed, placed elements measured, page references filled in) and checks what the HTML alone cannot prove (not a test;
 * prints figures): the header/footer page numbers appear on every page, no request leaves the page, the PDF's page
 * count, how many page groups it printed in. Writes the PDFs to bench/results/dsl/ (git-ignored).
 *
 *   node tools/build.mjs && node dist/bench/dsl/print-examples.js
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { printPdfOnPage, serviceFontConfigFile } from '@docrender/render-service';
import { CompiledDocument, compileDocument, CompileInput, Template } from '@docrender/template-dsl';
import { runBench } from '../shared/run-bench';

const root = path.resolve(__dirname, '../../..');
const outDir = path.join(root, 'bench', 'results', 'dsl');

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

function input(name: string, language: string | null): CompileInput {
  const dir = path.join(root, 'examples', name);
  const result: CompileInput = { template: readJson(path.join(dir, 'template.json')) as Template, data: readJson(path.join(dir, 'data.json')), language, watermark: name === 'invoice' ? 'TEST' : null };
  if (name === 'letter') result.translations = readJson(path.join(dir, 'translations.json'));
  if (name === 'certificate') {
    const font = readFileSync(path.join(dir, 'fonts', 'great-vibes-latin-400-normal.woff2')).toString('base64');
    result.customFonts = [{ family: 'Great Vibes', weight: 400, style: 'normal', dataUri: `data:font/woff2;base64,${font}` }];
  }
  return result;
}

/** How many groups of alike pages a document of `pages` pages prints in (1 when every page prints alike). */
function pageGroups(doc: CompiledDocument, pages: number): number {
  const variantOf = doc.pageVariant;
  if (!variantOf) return 1;
  return new Set(Array.from({ length: pages }, (_v, i) => JSON.stringify(variantOf(i + 1, pages)))).size;
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const browser = await puppeteer.launch({
    executablePath: process.env.PUPPETEER_EXECUTABLE_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    // the render service's fonts (decision 0030)
    env: { ...process.env, FONTCONFIG_FILE: serviceFontConfigFile() },
  });
  const rows: Record<string, string | number>[] = [];
  try {
    for (const [name, language] of [['invoice', null], ['report', null], ['letter', 'de'], ['certificate', null], ['label', null], ['ledger', null], ['statement', null], ['catalogue', null]] as const) {
      const compileStart = Date.now();
      const doc = compileDocument(input(name, language));
      const compileMs = Date.now() - compileStart;
      const page = await browser.newPage();
      await page.setJavaScriptEnabled(doc.needsJavaScript);
      await page.setRequestInterception(true);
      let blocked = 0;
      page.on('request', (request) => {
        if (request.url().startsWith('data:')) void request.continue();
        else {
          blocked++;
          void request.abort();
        }
      });
      const printStart = Date.now();
      let placedBeyondPage: string[] = [];
      const pdf = await printPdfOnPage(page, {
        html: doc.html,
        tagged: doc.tagged,
        headerHtml: doc.headerHtml,
        footerHtml: doc.footerHtml,
        pageVariant: doc.pageVariant,
        pageAwareTables: doc.pageAwareTables,
        pageReferences: doc.pageReferences,
        outline: doc.outline,
        onPlacedBeyondPage: doc.placedToMeasure ? (ids) => (placedBeyondPage = ids) : undefined,
      });
      const printMs = Date.now() - printStart;
      await page.close();
      const file = path.join(outDir, `${name}${language ? `.${language}` : ''}.pdf`);
      writeFileSync(file, pdf);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      const pages = text.split('\f').filter((p) => p.trim().length > 0);
      const numbered = pages.filter((p, i) => new RegExp(`\\b${i + 1}\\s*(of|/)\\s*${pages.length}\\b`).test(p)).length;
      rows.push({
        example: name,
        issues: doc.issues.length + placedBeyondPage.length,
        pages: pages.length,
        'page groups': pageGroups(doc, pages.length),
        'page-aware tables': doc.pageAwareTables ? 'yes' : 'no',
        'pages numbered "n of N"': numbered,
        'blocked requests': blocked,
        'compile ms': compileMs,
        'print ms': printMs,
        'PDF KiB': Math.round(pdf.length / 1024),
      });
    }
  } finally {
    await browser.close();
  }
  console.log(`Printed with ${path.relative(root, outDir)}/*.pdf`);
  console.table(rows);
}

runBench(main);
