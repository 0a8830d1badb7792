import { compileDocument } from '../render/compile-document';
import type { Template } from '../model/template.types';
import { bandCharacters, BandFaceSubsets } from './band-face-subsets';
import { characterSetOfData } from './character-map';
import { BAND_SUBSET_FAMILY, BUILTIN_FONT_ORIGIN } from './font-registry';

/** For the cases that make subsets of real font files: a failure there is a test failure. */
const noFailureExpected = (file: string, error: unknown): void => {
  throw new Error(`subsetting ${file} failed: ${String(error)}`);
};

/** A header with data and an image's alt text, a footer with the page counters; Greek in the data. */
const template = {
  page: {
    header: { elements: [{ type: 'text', id: 'h', text: '{{ seller }} & Co' }] },
    footer: { elements: [{ type: 'text', id: 'f', text: 'Seite {{ pageNumber }} von {{ totalPages }}' }] },
  },
  body: [{ type: 'text', id: 'b', text: 'Body line', style: { fontWeight: 700 } }],
} as Template;
const data = { seller: 'Ωμέγα <Ltd>' };

async function compiledWithSubsets(subsets: BandFaceSubsets): Promise<ReturnType<typeof compileDocument>> {
  // the first document asks, the second has the subsets made; the third prints them
  compileDocument({ template, data, builtinFonts: 'served', bandFaceSubsets: subsets });
  compileDocument({ template, data, builtinFonts: 'served', bandFaceSubsets: subsets });
  await subsets.settled();
  return compileDocument({ template, data, builtinFonts: 'served', bandFaceSubsets: subsets });
}

function subsetFonts(css: string): Buffer[] {
  return [...css.matchAll(/src:url\(data:font\/ttf;base64,([A-Za-z0-9+/=]+)\)/g)].map((m) => Buffer.from(m[1], 'base64'));
}

describe('decision 0020, band faces subset: the characters a band can print', () => {
  it('its text after the data is applied (entities decoded), the alt text of its images, the counter digits and a space', () => {
    expect(bandCharacters(['<p class="t">Ab &amp; &lt;&#39;&#x3a9;&gt;</p><img src="data:image/png;base64,QQ==" alt="Zz">'])).toEqual(" &'0123456789<>AZbzΩ");
  });

  it('the characters of every band together, each once', () => {
    expect(bandCharacters(['<p>ba</p>', '<p>ab</p>'])).toEqual(' 0123456789ab');
  });

  it.each([
    ['a list (Chromium draws its markers)', '<ul><li>item</li></ul>'],
    ['a combining mark (shaping may compose it into a glyph the text does not name)', '<p>e\u0301</p>'],
    ['a soft hyphen (a hyphen at a break)', '<p>Donau\u00addampf</p>'],
    ['an entity the compiler does not write', '<p>a&nbsp;b</p>'],
  ])('none (the whole face) for %s', (_why, markup) => {
    expect(bandCharacters([markup])).toBeNull();
  });
});

describe('decision 0020, band faces subset: served documents print their band faces subset', () => {
  it('without subsets (preview, validation, another printer) or before they are made, every face a band uses stays whole and inline', () => {
    const subsets = new BandFaceSubsets(noFailureExpected);
    for (const compiled of [compileDocument({ template, data, builtinFonts: 'served' }), compileDocument({ template, data, builtinFonts: 'served', bandFaceSubsets: subsets })]) {
      expect(compiled.html).not.toContain(BAND_SUBSET_FAMILY);
      expect(compiled.footerHtml).not.toContain('data:font/ttf');
      expect(compiled.footerHtml).toContain('data:font/woff2;base64,');
    }
  });

  it('a subset is made the second time a document asks for it, and then printed', async () => {
    const subsets = new BandFaceSubsets(noFailureExpected);
    compileDocument({ template, data, builtinFonts: 'served', bandFaceSubsets: subsets });
    await subsets.settled();
    expect(compileDocument({ template, data, builtinFonts: 'served', bandFaceSubsets: subsets }).footerHtml).not.toContain('data:font/ttf');
    await subsets.settled();
    expect(compileDocument({ template, data, builtinFonts: 'served', bandFaceSubsets: subsets }).footerHtml).toContain('data:font/ttf');
  });

  it('the band names the subset; the document serves the file for its own text and declares the same subset under a family of its own', async () => {
    const compiled = await compiledWithSubsets(new BandFaceSubsets(noFailureExpected));
    const inBand = subsetFonts(compiled.footerHtml ?? '');
    expect(inBand.length).toEqual(2); // latin and greek
    expect(subsetFonts(compiled.headerHtml ?? '')).toEqual(inBand);
    expect(subsetFonts(compiled.html)).toEqual(inBand);
    expect(compiled.html).toContain(`font-family:'docrender band subset'`);
    expect(compiled.html).toContain(`${BUILTIN_FONT_ORIGIN}/inter-latin-400-normal.woff2`);
    expect(compiled.html).toContain(`${BUILTIN_FONT_ORIGIN}/inter-greek-400-normal.woff2`);
    expect(compiled.html).not.toContain('data:font/woff2');
  });

  it('every character the bands print is in their subset faces', async () => {
    const compiled = await compiledWithSubsets(new BandFaceSubsets(noFailureExpected));
    // the subset faces' cmaps, read as glyph coverage reads every font (character-map, tested on its own)
    const faces = subsetFonts(compiled.footerHtml ?? '').map((font) => characterSetOfData(font));
    const printed = `Ωμέγα <Ltd> & Co Seite von 0123456789`;
    expect([...printed].filter((c) => !faces.some((face) => face?.has(c.codePointAt(0) ?? 0)))).toEqual([]);
  });

  it('bands whose pages differ keep their whole faces (their text is not certain from one rendering)', async () => {
    const subsets = new BandFaceSubsets(noFailureExpected);
    const differing = { ...template, page: { ...template.page, header: { elements: [{ type: 'text', id: 'h1', text: 'Other' }], first: { elements: [{ type: 'text', id: 'h2', text: 'First' }] } } } } as Template;
    compileDocument({ template: differing, data, builtinFonts: 'served', bandFaceSubsets: subsets });
    compileDocument({ template: differing, data, builtinFonts: 'served', bandFaceSubsets: subsets });
    await subsets.settled();
    expect(compileDocument({ template: differing, data, builtinFonts: 'served', bandFaceSubsets: subsets }).html).not.toContain(BAND_SUBSET_FAMILY);
  });

  it('a subset that fails is reported and not tried again: the bands asking for it keep the whole face', async () => {
    const failures: string[] = [];
    const subsets = new BandFaceSubsets((file) => failures.push(file));
    const notAFont = __filename;
    const ask = async (): Promise<string | null> => {
      const uri = subsets.dataUri(notAFont, 'abc');
      await subsets.settled();
      return uri;
    };
    expect([await ask(), await ask()]).toEqual([null, null]);
    expect(failures).toEqual([notAFont]);
    expect([await ask(), await ask(), await ask()]).toEqual([null, null, null]);
    expect(failures).toEqual([notAFont]);
  });
});
