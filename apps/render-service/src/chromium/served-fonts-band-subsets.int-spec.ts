import { BandFaceSubsets, CompiledDocument, compileDocument, Template } from '@docrender/template-dsl';
import { printedLook } from '../../test/pdf-tools';
import { printCompiled, printPoolForTests } from '../../test/print-pool';
import { readExample } from '../../test/render-service.harness';
import type { BrowserPool } from './browser-pool';

interface Case {
  example: string;
  language?: string;
  data?: (data: Record<string, unknown>) => Record<string, unknown>;
}

const noFailureExpected = (file: string, error: unknown): void => {
  throw new Error(`subsetting ${file} failed: ${String(error)}`);
};

function compile(c: Case, bandFaceSubsets?: BandFaceSubsets): CompiledDocument {
  const { template, data, translations } = readExample(c.example);
  const applied = c.data ? c.data(data as Record<string, unknown>) : data;
  return bandFaceSubsets
    ? compileDocument({ template: template as Template, data: applied, translations, language: c.language, builtinFonts: 'served', bandFaceSubsets })
    : compileDocument({ template: template as Template, data: applied, translations, language: c.language });
}

describe('decision 0020, band faces subset: bands printing their faces subset to their characters print as with the whole faces', () => {
  let pool: BrowserPool;

  printPoolForTests('docrender render-service (band face subsets test)', (started) => (pool = started));

  it.each<[string, Case, boolean]>([
    ['the invoice (a header with data and an image, a footer with page counters)', { example: 'invoice' }, true],
    [
      'the invoice with Greek and Cyrillic in both bands (three files of the face subset, page counters)',
      { example: 'invoice', data: (d) => ({ ...d, seller: { ...(d.seller as object), name: 'Ωμέγα Λογισμικό · ООО «Акме»' } }) },
      true,
    ],
    ['the German letter (bands that differ per page keep their whole faces)', { example: 'letter', language: 'de' }, false],
  ])('%s: the same text, fonts and page images', async (_name, c, subset) => {
    const subsets = new BandFaceSubsets(noFailureExpected);
    compile(c, subsets);
    compile(c, subsets);
    await subsets.settled();
    const compiled = compile(c, subsets);
    expect({ subset: (compiled.footerHtml ?? '').includes('data:font/ttf') }).toEqual({ subset });
    const whole = await printedLook(await printCompiled(pool, compile(c)));
    const printed = await printedLook(await printCompiled(pool, compiled));
    expect(printed.fonts).toEqual(whole.fonts);
    expect(printed.text).toEqual(whole.text);
    expect(printed.pages.length).toEqual(whole.pages.length);
    printed.pages.forEach((page, index) => expect({ page: index + 1, same: page === whole.pages[index] }).toEqual({ page: index + 1, same: true }));
    // and again on the same page (its memory cache holds the served files now)
    expect(await printedLook(await printCompiled(pool, compiled))).toEqual(printed);
  });
});
