import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { compileDocument, Template, TemplateElement } from '@docrender/template-dsl';
import { pdfFontNames, pdfText } from '../../test/pdf-tools';
import { printCompiled, printPoolForTests } from '../../test/print-pool';
import { readExample } from '../../test/render-service.harness';
import type { BrowserPool } from './browser-pool';

const run = promisify(execFile);

interface Word {
  text: string;
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
}

/** The words of the first page with their boxes in points, as poppler's `pdftotext -bbox` reads them (glyphs in visual order). */
async function wordsOf(pdf: Buffer): Promise<{ pageWidth: number; words: Word[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docrender-rtl-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-bbox', '-f', '1', '-l', '1', file, '-']);
    const pageWidth = Number(/<page width="([\d.]+)"/.exec(stdout)?.[1]);
    const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    const words = [...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
      text: m[5].replace(/&(\w+);/g, (all, name: string) => entities[name] ?? all),
      xMin: Number(m[1]),
      yMin: Number(m[2]),
      xMax: Number(m[3]),
      yMax: Number(m[4]),
    }));
    return { pageWidth, words };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const MM = 72 / 25.4;
const ARABIC = /\p{Script=Arabic}/u;

/**
 * The words on the line of the word `marker`: their boxes span the middle of its box (a word's top depends on its
 * letters' heights, by 4 pt more in Noto Sans Arabic than in the Latin of the same line), left to right.
 */
function lineOf(words: Word[], marker: (w: Word) => boolean): Word[] {
  const at = words.find(marker);
  if (!at) throw new Error(`no word like that among ${words.map((w) => w.text).join(' ')}`);
  const middle = (at.yMin + at.yMax) / 2;
  return words.filter((w) => w.yMin <= middle && w.yMax >= middle).sort((a, b) => a.xMin - b.xMin);
}

describe('issue 33 items 1, 4 and 5: right-to-left, hyphenated and multilingual documents as Chromium prints them (pdftotext -bbox, pdffonts)', () => {
  let pool: BrowserPool;

  printPoolForTests('docrender render-service (right-to-left test)', (started) => (pool = started));

  const print = async (body: TemplateElement[], data: unknown, extra: Partial<Template> = {}) => {
    const compiled = compileDocument({ template: { dsl: 1, page: { size: 'A4', margins: '20mm' }, body, ...extra }, data });
    expect(compiled.issues).toEqual([]);
    return wordsOf(await printCompiled(pool, compiled));
  };

  it('item 1: an Arabic paragraph in an Arabic document starts at the right margin and its trailing "." lands at the left end', async () => {
    const body: TemplateElement[] = [{ type: 'text', id: 'p', text: 'البند الثاني: Cloud Plan S.' }];
    // the locale ar-SA makes the document right to left (no direction set)
    const { pageWidth, words } = await print(body, {}, { locale: 'ar-SA' });
    const line = lineOf(words, (w) => w.text.includes('Plan'));
    expect(line[0].text.startsWith('.')).toBe(true);
    expect(line.map((w) => ARABIC.test(w.text))).toEqual([false, false, false, true, true]);
    expect(Math.abs(line[line.length - 1].xMax - (pageWidth - 20 * MM))).toBeLessThan(2);
    // the Latin phrase keeps its order: Cloud Plan S
    expect(line.slice(0, 3).map((w) => w.text.replace('.', ''))).toEqual(['Cloud', 'Plan', 'S']);
  });

  it('item 1: an Arabic paragraph in an English document still reads right to left (first strong letter); forced ltr it does not', async () => {
    const text = 'البند الثاني: Cloud Plan S.';
    const auto = lineOf((await print([{ type: 'text', id: 'p', text }], {})).words, (w) => w.text.includes('Plan'));
    expect(auto[0].text.startsWith('.')).toBe(true);
    const forced = lineOf((await print([{ type: 'text', id: 'p', text, direction: 'ltr' }], {})).words, (w) => w.text.includes('Plan'));
    expect(forced[forced.length - 1].text.endsWith('.')).toBe(true);
    expect(ARABIC.test(forced[0].text)).toBe(true);
  });

  it('item 1: a Latin name bound into Arabic text keeps its own order and its full stop; a negative number stays -5', async () => {
    const body: TemplateElement[] = [{ type: 'text', id: 'p', text: 'العميل {{ name }} والرصيد {{ balance }}' }];
    const { words } = await print(body, { name: 'ACME Ltd.', balance: -5 }, { direction: 'rtl' });
    const line = lineOf(words, (w) => w.text.includes('ACME'));
    const texts = line.map((w) => w.text);
    expect(texts).toContain('-5');
    const acme = texts.indexOf('ACME');
    expect(texts[acme + 1]).toBe('Ltd.');
    // reading right to left: العميل, then the name, then والرصيد and the number further left
    const customer = line.findIndex((w) => w.text.includes('ليمعلا'));
    const balance = line.findIndex((w) => w.text === '-5');
    expect(balance).toBeLessThan(acme);
    expect(acme).toBeLessThan(customer);
  });

  it('item 1: in a right-to-left document the first column of a table and the first item of a row are on the right, placed elements measure from the right edge', async () => {
    const body: TemplateElement[] = [
      {
        type: 'table',
        id: 'lines',
        source: 'lines',
        columns: [
          { id: 'd', header: 'الوصف', value: '{{ item.d }}' },
          { id: 'q', header: 'الكمية', value: '{{ item.q }}' },
        ],
      },
      {
        type: 'row',
        id: 'r',
        elements: [
          { type: 'text', id: 'a', text: 'Alpha' },
          { type: 'text', id: 'b', text: 'Beta' },
        ],
      },
      // a Latin text is left to right (its first letter): aligned right to show where its box ends
      { type: 'text', id: 'stamp', text: 'STAMP', width: '30mm', style: { textAlign: 'right' }, position: { x: '25mm', y: '200mm' } },
    ];
    const { pageWidth, words } = await print(body, { lines: [{ d: 'Cloud', q: 3 }] }, { direction: 'rtl' });
    const x = (text: string): Word => words.find((w) => w.text === text) as Word;
    expect(x('Cloud').xMin).toBeGreaterThan(x('3').xMin);
    expect(Math.abs(x('Cloud').xMax - (pageWidth - 20 * MM - 4))).toBeLessThan(2);
    expect(x('Alpha').xMin).toBeGreaterThan(x('Beta').xMin);
    expect(Math.abs(x('STAMP').xMax - (pageWidth - 25 * MM))).toBeLessThan(2);
  });

  it('item 1: a page-aware table in a right-to-left document mirrors its carried and brought-forward rows with the rest', async () => {
    const template: Template = {
      dsl: 1,
      direction: 'rtl',
      page: { size: 'A5', margins: '15mm' },
      body: [
        {
          type: 'table',
          id: 'ledger',
          source: 'entries',
          as: 'e',
          columns: [
            { id: 'text', header: 'البيان', value: '{{ e.text }}' },
            { id: 'amount', header: 'المبلغ', value: '{{ e.amount | number(2) }}', width: '30mm', align: 'end' },
          ],
          pageBreaks: {
            sums: { amount: '{{ e.amount }}' },
            carried: { text: 'Carried', amount: '{{ carried.amount | number(2) }}' },
            brought: { text: 'Brought', amount: '{{ carried.amount | number(2) }}' },
          },
        },
      ],
    };
    const entries = Array.from({ length: 40 }, (_, i) => ({ text: `Entry${i + 1}`, amount: 10 }));
    const compiled = compileDocument({ template, data: { entries } });
    expect(compiled.issues).toEqual([]);
    const { pageWidth, words } = await wordsOf(await printCompiled(pool, compiled));
    const carried = lineOf(words, (w) => w.text === 'Carried');
    // the label column is the first: on the right; the running sum on its left, read left to right
    expect(carried.map((w) => w.text)).toEqual([expect.stringMatching(/^\d+\.00$/), 'Carried']);
    expect(Math.abs(carried[1].xMax - (pageWidth - 15 * MM - 4))).toBeLessThan(2);
  });

  it('item 5: examples/invoice-ar prints right to left: its first column (#) on the right, Arabic before English in a line, the total on one line', async () => {
    const { template, data } = readExample('invoice-ar');
    const compiled = compileDocument({ template: template as Template, data });
    expect(compiled.issues).toEqual([]);
    const { pageWidth, words } = await wordsOf(await printCompiled(pool, compiled));
    const hash = words.find((w) => w.text === '#') as Word;
    expect(Math.abs(hash.xMax - (pageWidth - 16 * MM - 4))).toBeLessThan(3);
    // the seller (first in its row) is on the right of the buyer; in "البائع · Seller" the Arabic word is on the right
    const parties = lineOf(words, (w) => w.text === 'Seller').map((w) => w.text);
    expect(parties.indexOf('Buyer')).toBeLessThan(parties.indexOf('Seller'));
    expect(ARABIC.test(parties[parties.length - 1])).toBe(true);
    expect(parties[parties.length - 3]).toBe('Seller');
    // the total due, 8,496.20, reads left to right in one piece
    // (the group separator is left out of the pattern: poppler reads the one of the host's Arabic font as it likes)
    expect(words.some((w) => /^\u200f?8.496\.20\u200f?$/u.test(w.text))).toBe(true);
  });

  it('item 4: a date, an amount and a code in a narrow table cell are never broken inside', async () => {
    const body: TemplateElement[] = [
      {
        type: 'table',
        id: 'narrow',
        source: 'rows',
        columns: [
          { id: 'd', value: "{{ item.d | date('short') }}", width: '12mm' },
          { id: 'a', value: '{{ item.a | currency }}', width: '12mm' },
          { id: 'c', value: '{{ item.c }}', width: '12mm' },
          { id: 'x', value: 'x' },
        ],
      },
    ];
    const { words } = await print(body, { rows: [{ d: '2026-01-01', a: 1234567.5, c: 'INV-2026-00042' }] }, { locale: 'en-GB', currency: 'EUR' });
    const texts = words.map((w) => w.text);
    expect(texts).toEqual(expect.arrayContaining(['01/01/2026', '€1,234,567.50', 'INV-2026-00042']));
  });

  it.each([
    ['en-GB', 'representation', 'The representation of the international organisations was considerable.'],
    ['de-DE', 'Rechnungsnummer', 'Die Rechnungsnummer der Versicherungsgesellschaft steht oben.'],
  ])('item 4: in %s a long word of a narrow hyphenated column is split across lines with hyphens', async (locale, word, text) => {
    const column = (id: string, hyphenate: boolean): TemplateElement => ({ type: 'text', id, text: '{{ text }}', width: '22mm', style: { hyphenate } });
    const { words } = await print([column('on', true)], { text }, { locale });
    // poppler keeps the soft hyphen before the hyphen Chromium draws at the break: "Rech\u00ad-", "nungs\u00adnum\u00ad-", "mer"
    const pieces = words.map((w) => w.text.replace(/\u00ad/g, ''));
    const first = pieces.findIndex((p) => p.endsWith('-') && p.length > 1 && word.startsWith(p.slice(0, -1)));
    expect({ pieces, first: first >= 0 }).toEqual({ pieces, first: true });
    let joined = '';
    let last = first;
    while (pieces[last].endsWith('-')) joined += pieces[last++].slice(0, -1);
    joined += pieces[last];
    expect(joined.replace(/[.,]$/, '')).toBe(word);
    // each piece after the first starts a line of its own, at the column's left edge
    for (let i = first + 1; i <= last; i++) {
      expect(words[i].yMin).toBeGreaterThan(words[i - 1].yMax - 1);
      expect(Math.abs(words[i].xMin - 20 * MM)).toBeLessThan(1);
    }
    // without hyphenate the word is never split with a hyphen
    const plain = (await print([column('off', false)], { text }, { locale })).words;
    expect(plain.some((w) => /-$/u.test(w.text))).toBe(false);
  });

  it('item 1: a header of its own direction (rtl in an English document) starts at the right margin with its page counter in its order', async () => {
    const { pageWidth, words } = await print([{ type: 'text', id: 'b', text: 'Body' }], {}, {
      page: { size: 'A4', margins: '20mm', header: { direction: 'rtl', elements: [{ type: 'text', id: 'h', text: 'صفحة {{ pageNumber }} Page' }] } },
    });
    const line = lineOf(words, (w) => w.text === 'Page');
    // read right to left: صفحة at the right margin, then the counter, then "Page" on the left
    expect(ARABIC.test(line[line.length - 1].text)).toBe(true);
    expect(Math.abs(line[line.length - 1].xMax - (pageWidth - 20 * MM))).toBeLessThan(2);
    expect(line.map((w) => w.text).slice(0, 2)).toEqual(['Page', '1']);
  });

  it('item 5: examples/multilingual prints every script of the set in the service\'s fonts (pdffonts), with no UnresolvedFont issue', async () => {
    const { template, data } = readExample('multilingual');
    const compiled = compileDocument({ template: template as Template, data, builtinFonts: 'served' });
    expect(compiled.issues).toEqual([]);
    const pdf = await printCompiled(pool, compiled);
    const fonts = await pdfFontNames(pdf);
    // Latin, Greek and Cyrillic in Inter (the built-in default), the other scripts in their Noto family, CJK as Type 3 glyphs
    for (const family of ['Inter', 'NotoSansArabic', 'NotoSansHebrew', 'NotoSansDevanagari', 'NotoSansThai']) {
      expect({ family, found: fonts.some((f) => f.startsWith(`${family}-`)) }).toEqual({ family, found: true });
    }
    expect(fonts).toContain('[none]');
    expect(fonts.filter((f) => !/^(Inter|NotoSans(Arabic|Hebrew|Devanagari|Thai)?)-|^\[none\]$/.test(f))).toEqual([]);
    const text = (await pdfText(pdf)).replace(/\s+/g, '');
    for (const sample of ['Ελληνικά', 'Русский', 'हिन्दी', 'ไทย', '简体中文', '繁體中文', '日本語', '한국어', 'Arabic', 'Hebrew']) expect(text).toContain(sample);
  });
});
