import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { IssueSeverity, RenderIssueType } from '@docrender/contracts';
import { Template } from '../model/template.types';
import { BASE_CSS, CompileInput, compileDocument, imageReferencesOf, validateDocument } from './compile-document';

const repoRoot = path.resolve(__dirname, '../../../..');
const goldenDir = path.join(__dirname, '__golden__');
const EXAMPLES = ['invoice', 'report', 'letter', 'certificate', 'label', 'ledger', 'invoice-ar', 'statement', 'e-invoice', 'e-invoice-xrechnung', 'catalogue', 'multilingual'] as const;

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

function exampleInput(name: string, language: string | null = null): CompileInput {
  const dir = path.join(repoRoot, 'examples', name);
  const input: CompileInput = {
    template: readJson(path.join(dir, 'template.json')) as Template,
    data: readJson(path.join(dir, 'data.json')),
    language,
    documentNameTemplate: name === 'invoice' ? 'Invoice {{ number }} - {{ customer.name }}' : null,
    fallbackDocumentName: name,
  };
  if (name === 'letter') input.translations = readJson(path.join(dir, 'translations.json'));
  if (name === 'certificate') {
    const font = readFileSync(path.join(dir, 'fonts', 'great-vibes-latin-400-normal.woff2')).toString('base64');
    input.customFonts = [{ family: 'Great Vibes', weight: 400, style: 'normal', dataUri: `data:font/woff2;base64,${font}` }];
  }
  return input;
}

/** What stands in the golden files for the base stylesheet every document and band carries (its own golden: base.css). */
const BASE_CSS_MARK = '[the base stylesheet, __golden__/base.css]';

/**
 * Long Base64 payloads (fonts, images) become a short digest, so the golden files stay readable; the base stylesheet,
 * the same in every document and band, becomes a mark (it is compared once, as base.css).
 */
function normalise(html: string | null): string {
  if (html === null) return '(none)\n';
  return html.replace(BASE_CSS, BASE_CSS_MARK).replace(/base64,([A-Za-z0-9+/=]{200,})/g, (_m, payload: string) => {
    const digest = createHash('sha256').update(payload).digest('hex').slice(0, 16);
    return `base64,[${payload.length} chars sha256:${digest}]`;
  });
}

function expectGolden(file: string, actual: string): void {
  const full = path.join(goldenDir, file);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(goldenDir, { recursive: true });
    writeFileSync(full, actual);
  }
  expect(actual).toBe(readFileSync(full, 'utf8'));
}

describe('examples: golden HTML (UPDATE_GOLDEN=1 rewrites the files in __golden__)', () => {
  const cases: [string, string | null][] = [
    ['invoice', null],
    ['report', null],
    ['letter', 'en'],
    ['letter', 'de'],
    ['certificate', null],
    ['label', null],
    ['ledger', null],
    ['invoice-ar', null],
    ['statement', null],
    ['e-invoice', null],
    ['e-invoice-xrechnung', null],
    ['catalogue', null],
    ['multilingual', null],
  ];

  it('the base stylesheet every document and band starts with is its golden base.css', () => {
    expectGolden('base.css', `${BASE_CSS}\n`);
  });

  it.each(cases)('the %s example (%s) compiles without issues to its golden HTML', (name, language) => {
    const doc = compileDocument(exampleInput(name, language));
    expect(doc.issues).toEqual([]);
    for (const html of [doc.html, doc.headerHtml, doc.footerHtml]) if (html !== null) expect(html).toContain(BASE_CSS);
    expect(doc.needsJavaScript).toBe(false);
    const stem = language ? `${name}.${language}` : name;
    expectGolden(`${stem}.html`, normalise(doc.html));
    expectGolden(`${stem}.header.html`, normalise(doc.headerHtml));
    expectGolden(`${stem}.footer.html`, normalise(doc.footerHtml));
    if (doc.pageVariant) {
      // issue 20: a document whose pages differ; its first page (of two) has bands of its own
      const first = doc.pageVariant(1, 2);
      expectGolden(`${stem}.first.header.html`, normalise(first.headerHtml));
      expectGolden(`${stem}.first.footer.html`, normalise(first.footerHtml));
    }
  });

  it('the invoice has 30 line items, a totals row and a QR payment code; the header and footer carry page numbers', () => {
    const doc = compileDocument(exampleInput('invoice'));
    expect(doc.html.match(/<tr/g)?.length).toBe(1 + 30 + 1);
    expect(doc.html).toContain('<tbody class="tot">');
    expect(doc.html).toMatch(/<svg[^>]*viewBox="0 0 \d+ \d+"[^>]*fill="currentColor"/);
    expect(doc.footerHtml).toContain('<span class="pageNumber"></span> of <span class="totalPages"></span>');
    expect(doc.documentName).toBe('Invoice INV-2026-00042 - Globex Corporation');
  });

  it('issue 33 item 5: the Arabic/English tax invoice is right to left from its locale, with isolated names, amounts on one line and a QR code', () => {
    const doc = compileDocument(exampleInput('invoice-ar'));
    expect(doc.html).toContain('<html lang="ar-SA-u-nu-latn" dir="rtl">');
    expect(doc.html.match(/<tr/g)?.length).toBe(1 + 4);
    // a party's English name is a value: isolated in the right-to-left paragraph, its full stop stays at its end
    expect(doc.html).toMatch(/<p class="t[^"]*"><bdi>Al Ufuq Software Co\.<\/bdi><\/p>/);
    expect(doc.html).toMatch(/<p class="t[^"]*"><bdi>شركة الأفق للبرمجيات<\/bdi><\/p>/);
    // 7,388.00 net, 15% VAT 1,108.20, 8,496.20 due: Arabic-formatted amounts, kept on one line
    expect(doc.html).toContain('<bdi class="nb">\u200f8,496.20\u00a0ر.س.\u200f</bdi>');
    expect(doc.html).toMatch(/<svg[^>]*viewBox="0 0 \d+ \d+"/);
    expect(doc.footerHtml).toContain('<div class="fband" dir="rtl">');
  });

  it('issue 33 item 5: the multilingual notice has a line in each of twelve languages, in its own lang; its narrow columns are hyphenated in English and German', () => {
    const doc = compileDocument(exampleInput('multilingual'));
    expect(doc.issues).toEqual([]);
    const langs = [...doc.html.matchAll(/<div lang="([^"]+)"(?: dir="rtl")? class="[^"]*"><div/g)].map((m) => m[1]);
    expect(langs).toEqual(['en-GB', 'de-DE', 'el', 'ru', 'ar', 'he', 'hi', 'th', 'zh-Hans', 'zh-Hant', 'ja', 'ko']);
    // the Arabic and Hebrew lines are right to left in a left-to-right document: their label on the right, the Latin script name isolated
    expect(doc.html).toMatch(/<div lang="ar" dir="rtl" class="s\d+"><div class="s\d+"><p class="t s\d+">العربية<\/p><p lang="en" dir="ltr" class="t s\d+">Arabic<\/p><\/div><p class="t s\d+"><bdi>يرجى/);
    expect(doc.html).toMatch(/<div lang="he" dir="rtl" class="s\d+">/);
    expect(doc.html).toMatch(/<p class="t s\d+">Please keep this doc\u00adu\u00adment: it ex\u00adplains/);
    expect(doc.html).toMatch(/<p lang="de-DE" class="t s\d+">Bit\u00adte be\u00adwah\u00adren Sie die\u00adses Do\u00adku\u00adment auf/);
  });

  it('issue 21: the invoice computes its line totals and VAT breakdown from raw quantities, prices and rates', () => {
    const input = exampleInput('invoice');
    const data = input.data as { items: Record<string, unknown>[] } & Record<string, unknown>;
    expect(data.totals).toBeUndefined();
    expect(data.items.every((i) => i.amount === undefined)).toBe(true);
    const doc = compileDocument(input);
    // hand-computed: 7% on 3,425.00 is 239.75; 19% on 25,265.50 is 4,800.445, rounded 4,800.45; net 28,690.50
    expect(doc.html).toContain('<p class="t">7% VAT on €3,425.00\n19% VAT on €25,265.50</p><p class="t s23">€239.75\n€4,800.45</p>');
    expect(doc.html).toContain('€28,690.50');
    expect(doc.html).toContain('€33,730.70');
    // line 1: 3 × €80.00
    expect(doc.html).toMatch(/<td[^>]*><nobr>3<\/nobr><\/td><td[^>]*><nobr>€80\.00<\/nobr><\/td><td[^>]*><nobr>7%<\/nobr><\/td><td[^>]*><nobr>€240\.00<\/nobr><\/td>/);
  });

  it.each([
    ['e-invoice', 'en16931', 'factur-x.xml', '4448.66', '4.448,66\u00a0€'],
    ['e-invoice-xrechnung', 'xrechnung', 'xrechnung.xml', '3158.66', '3.158,66\u00a0€'],
  ])('issue 34 item 6: the %s example prints and maps the same grand total, computed from its lines, allowance and rates', (name, profile, fileName, xmlTotal, printed) => {
    const doc = compileDocument(exampleInput(name));
    expect(doc.eInvoice).toMatchObject({ profile, fileName });
    expect(doc.eInvoice?.xml).toContain(`<ram:GrandTotalAmount>${xmlTotal}</ram:GrandTotalAmount>`);
    expect(doc.html).toContain(printed);
  });

  it('the report has a 1,000-row table and two charts drawn as SVG', () => {
    const doc = compileDocument(exampleInput('report'));
    expect(doc.html.match(/<tr/g)?.length).toBe(1 + 1000 + 1);
    expect(doc.html.match(/<svg/g)?.length).toBe(2);
  });

  it('the letter follows the requested language and its locale', () => {
    const en = compileDocument(exampleInput('letter', 'en'));
    const de = compileDocument(exampleInput('letter', 'de'));
    expect(en.html).toContain('Your contract renewal');
    expect(en.html).toContain('20 November 2026');
    expect(de.html).toContain('Ihre Vertragsverlängerung');
    expect(de.html).toContain('20. November 2026');
    expect(de.html).toContain('1.490,00\u00a0€');
    expect(de.html).toContain('<html lang="de-DE" dir="ltr">');
  });

  it('the certificate has a first-page background and embeds the custom font', () => {
    const doc = compileDocument(exampleInput('certificate'));
    expect(doc.html).toContain('@page :first{background:url("data:image/svg+xml,');
    expect(doc.html).toContain("@font-face{font-family:'Great Vibes'");
    expect(doc.page).toMatchObject({ widthMm: 297, heightMm: 210, landscape: true });
    expect(doc.tagged).toBe(true);
  });

  it('the examples need no fetched image', () => {
    for (const name of EXAMPLES) {
      const input = exampleInput(name);
      expect(imageReferencesOf(input.template, input.data)).toEqual([]);
    }
  });
});

/** Random JSON, and the example data with random subtrees replaced by random JSON. */
function randomData(example: unknown): fc.Arbitrary<unknown> {
  const json = fc.jsonValue({ maxDepth: 4 });
  const mutated = fc.array(fc.tuple(fc.nat(), json), { minLength: 1, maxLength: 6 }).map((replacements) => {
    const copy = structuredClone(example) as Record<string, unknown>;
    for (const [seed, value] of replacements) {
      // Walk down a path chosen by the seed and replace what is there.
      let node: unknown = copy;
      let parent: Record<string, unknown> | unknown[] | null = null;
      let key: string | number = '';
      let s = seed;
      for (let depth = 0; depth < 4 && typeof node === 'object' && node !== null; depth++) {
        const keys: (string | number)[] = Array.isArray(node) ? node.map((_v, i) => i) : Object.keys(node);
        if (keys.length === 0) break;
        parent = node as Record<string, unknown> | unknown[];
        key = keys[s % keys.length];
        s = Math.floor(s / keys.length) + depth;
        node = (parent as Record<string | number, unknown>)[key];
      }
      if (parent !== null) (parent as Record<string | number, unknown>)[key] = value;
    }
    return copy;
  });
  return fc.oneof(json, mutated, fc.string().map((s) => `{"x":${s}`));
}

describe('examples: property (the compiler never throws for any data; it only reports issues)', () => {
  it.each(EXAMPLES)('random JSON data for the %s example gives a document and well-formed issues', (name) => {
    const input = exampleInput(name, name === 'letter' ? 'de' : null);
    fc.assert(
      fc.property(randomData(input.data), (data) => {
        const doc = compileDocument({ ...input, data });
        expect(typeof doc.html).toBe('string');
        expect(doc.html).not.toMatch(/<script/i);
        for (const issue of doc.issues) {
          expect(Object.values(RenderIssueType)).toContain(issue.type);
          expect(Object.values(IssueSeverity)).toContain(issue.severity);
          expect(issue.documentIndex).toBeNull();
          expect(issue.description.length).toBeGreaterThan(0);
        }
        expect(validateDocument({ ...input, data }).length).toBeLessThanOrEqual(doc.issues.length + 1);
      }),
      { numRuns: name === 'report' ? 30 : 60 },
    );
  });
});
