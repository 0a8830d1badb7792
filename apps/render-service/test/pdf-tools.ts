import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from '@cantoo/pdf-lib';
import { einvoiceOracleDir } from '@docrender/e-invoice/testing';
import { withTempFile } from '@docrender/testing';

const run = promisify(execFile);

/** `use` on the PDF written to a temporary file, removed afterwards. */
function withPdfFile<T>(pdf: Buffer, use: (file: string) => Promise<T>): Promise<T> {
  return withTempFile(pdf, 'document.pdf', use);
}

/**
 * The text of every page (poppler's pdftotext), pages separated by form feeds: laid out as on the page, or `raw`
 * in content-stream order (keeps rotated text such as the watermark in one piece).
 */
export function pdfText(pdf: Buffer, options: { raw?: boolean } = {}): Promise<string> {
  return withPdfFile(pdf, async (file) => (await run('pdftotext', [options.raw ? '-raw' : '-layout', file, '-'])).stdout);
}

/** The text of page `n` (1-based) alone, as poppler's `pdftotext -f n -l n` reads it: laid out as on the page, or `raw` (see pdfText). */
export function pdfPageText(pdf: Buffer, n: number, options: { raw?: boolean } = {}): Promise<string> {
  return withPdfFile(pdf, async (file) => (await run('pdftotext', ['-f', String(n), '-l', String(n), options.raw ? '-raw' : '-layout', file, '-'])).stdout);
}

/** The fields pdfinfo reports (Title, Producer, Pages, Tagged…); dates as ISO 8601 with `isoDates`. */
export function pdfInfo(pdf: Buffer, options: { isoDates?: boolean } = {}): Promise<Record<string, string>> {
  return withPdfFile(pdf, async (file) => {
    const { stdout } = await run('pdfinfo', options.isoDates ? ['-isodates', file] : [file]);
    return Object.fromEntries(
      stdout
        .split('\n')
        .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1].trim(), m[2].trim()]),
    );
  });
}

/**
 * The logical structure of a tagged PDF as poppler reads it (`pdfinfo -struct-text`): every element with its
 * attributes and the text of its marked content, indented by depth. Element IDs (`node…`, which Chromium takes from
 * the DOM) are numbered in order of appearance and object references (annotations) are left unnumbered, so two prints
 * of the same document compare equal.
 */
export function pdfStructure(pdf: Buffer): Promise<string> {
  return withPdfFile(pdf, async (file) => {
    const { stdout } = await run('pdfinfo', ['-struct-text', file], { maxBuffer: 64 * 1024 * 1024 });
    const ids = new Map<string, string>();
    const numbered = stdout.replace(/node\d+/g, (id) => {
      if (!ids.has(id)) ids.set(id, `id${ids.size + 1}`);
      return ids.get(id) as string;
    });
    return numbered.replace(/^(\s*)Object \d+ \d+$/gm, '$1Object');
  });
}

/** qpdf --check: resolves with its report when qpdf finds the file sound, rejects (non-zero exit) otherwise. */
export function qpdfCheck(pdf: Buffer): Promise<string> {
  return withPdfFile(pdf, async (file) => (await run('qpdf', ['--check', file])).stdout);
}

/** The first page rasterised by poppler's pdftoppm as a PNG, `dpi` pixels per inch. */
export function firstPagePng(pdf: Buffer, dpi: number): Promise<Buffer> {
  return withPdfFile(pdf, async (file) => {
    await run('pdftoppm', ['-png', '-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', file, `${file}-page`]);
    return readFile(`${file}-page.png`);
  });
}

/** Every page rasterised by poppler's pdftoppm, as PNGs in page order, `dpi` pixels per inch. */
export function pagePngs(pdf: Buffer, dpi: number): Promise<Buffer[]> {
  return withPdfFile(pdf, async (file) => {
    await run('pdftoppm', ['-png', '-r', String(dpi), file, `${file}-page`]);
    const pages = (await readdir(path.dirname(file))).filter((name) => name.startsWith(`${path.basename(file)}-page`)).sort();
    return Promise.all(pages.map((name) => readFile(path.join(path.dirname(file), name))));
  });
}

/** The names of the fonts embedded in the PDF (poppler's pdffonts), subset prefixes (ABCDEF+) removed. */
export function pdfFontNames(pdf: Buffer): Promise<string[]> {
  return withPdfFile(pdf, async (file) => {
    const { stdout } = await run('pdffonts', [file]);
    const names = stdout.split('\n').slice(2).flatMap((line) => (line.trim() === '' ? [] : [line.split(/\s+/)[0].replace(/^[A-Z]{6}\+/, '')]));
    return [...new Set(names)].sort();
  });
}

/** What a printed PDF shows: its text, its fonts and every page as pdftoppm draws it at 72 dpi (Base64 PNGs). */
export async function printedLook(pdf: Buffer): Promise<{ text: string; fonts: string[]; pages: string[] }> {
  const pages = await pagePngs(pdf, 72);
  return { text: await pdfText(pdf), fonts: await pdfFontNames(pdf), pages: pages.map((png) => png.toString('base64')) };
}

/** The named destinations of a PDF as poppler's `pdfinfo -dests` lists them: name → page (1-based). */
export function pdfDestinations(pdf: Buffer): Promise<Map<string, number>> {
  return withPdfFile(pdf, async (file) => {
    const { stdout } = await run('pdfinfo', ['-dests', file]);
    const found = stdout
      .split('\n')
      .map((line) => /^\s*(\d+)\s+\[.*\]\s+"(.*)"\s*$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null);
    return new Map(found.map((m) => [m[2], Number(m[1])]));
  });
}

/**
 * PDFBox Preflight through shared/einvoice's bin/pdfa-preflight for PDF/A part `part`: its exit code (0 = no counted
 * error) and its report.
 */
export function pdfaPreflight(pdf: Buffer, part: 2 | 3): Promise<{ code: number; report: string }> {
  return withPdfFile(pdf, async (file) => {
    try {
      const { stdout } = await run(path.join(einvoiceOracleDir(), 'bin/pdfa-preflight'), ['--part', String(part), file], { maxBuffer: 16 * 1024 * 1024 });
      return { code: 0, report: stdout };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, report: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  });
}

/** The entries of a PDF's outline, depth first: title, depth (0 at the top) and the page its destination is on. */
export async function outlineEntries(pdf: Buffer): Promise<{ title: string; depth: number; page: number | null }[]> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const pageOf = new Map(document.getPages().map((page, index) => [page.ref.toString(), index + 1]));
  const entries: { title: string; depth: number; page: number | null }[] = [];
  const walk = (item: PDFDict | undefined, depth: number): void => {
    for (let node = item; node !== undefined; node = node.lookupMaybe(PDFName.of('Next'), PDFDict)) {
      const title = node.lookupMaybe(PDFName.of('Title'), PDFString, PDFHexString)?.decodeText() ?? '';
      const destination = node.lookupMaybe(PDFName.of('Dest'), PDFArray) ?? node.lookupMaybe(PDFName.of('A'), PDFDict)?.lookupMaybe(PDFName.of('D'), PDFArray);
      entries.push({ title, depth, page: pageOf.get(String(destination?.get(0))) ?? null });
      walk(node.lookupMaybe(PDFName.of('First'), PDFDict), depth + 1);
    }
  };
  walk(document.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict)?.lookupMaybe(PDFName.of('First'), PDFDict), 0);
  return entries;
}
