/**
 * Prints the DSL examples with real Chromium and checks what the HTML alone cannot prove (not a test; prints
 * figures): the header/footer page numbers appear on every page, no request leaves the page, the PDF's
 * page count. Writes the PDFs to bench/results/dsl/ (git-ignored).
 *
 *   node tools/build.mjs && node dist/bench/dsl/print-examples.js
 *
 * The page.pdf options below are the ones the render service should use with a CompiledDocument.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer';
import { CompiledDocument, compileDocument, CompileInput, Template } from '@docrender/template-dsl';

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

/** page.pdf options for a compiled document. */
function pdfOptions(doc: CompiledDocument): Parameters<import('puppeteer').Page['pdf']>[0] {
  const m = doc.page.marginMm;
  const bands = doc.headerHtml !== null || doc.footerHtml !== null;
  return {
    width: `${doc.page.widthMm}mm`,
    height: `${doc.page.heightMm}mm`,
    margin: { top: `${m.top}mm`, right: `${m.right}mm`, bottom: `${m.bottom}mm`, left: `${m.left}mm` },
    printBackground: true,
    displayHeaderFooter: bands,
    headerTemplate: doc.headerHtml ?? '<span></span>',
    footerTemplate: doc.footerHtml ?? '<span></span>',
    tagged: doc.tagged,
    outline: false,
  };
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const browser = await puppeteer.launch({
    executablePath: process.env.PUPPETEER_EXECUTABLE_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const rows: Record<string, string | number>[] = [];
  try {
    for (const [name, language] of [['invoice', null], ['report', null], ['letter', 'de'], ['certificate', null]] as const) {
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
      await page.setContent(doc.html, { waitUntil: 'load' });
      const pdf = await page.pdf(pdfOptions(doc));
      const printMs = Date.now() - printStart;
      await page.close();
      const file = path.join(outDir, `${name}${language ? `.${language}` : ''}.pdf`);
      writeFileSync(file, pdf);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      const pages = text.split('\f').filter((p) => p.trim().length > 0);
      const numbered = pages.filter((p, i) => new RegExp(`\\b${i + 1}\\s*(of|/)\\s*${pages.length}\\b`).test(p)).length;
      rows.push({ example: name, issues: doc.issues.length, pages: pages.length, 'pages numbered "n of N"': numbered, 'blocked requests': blocked, 'compile ms': compileMs, 'print ms': printMs, 'PDF KiB': Math.round(pdf.length / 1024) });
    }
  } finally {
    await browser.close();
  }
  console.log(`Printed with ${path.relative(root, outDir)}/*.pdf`);
  console.table(rows);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
