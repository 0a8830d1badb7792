import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compileDocument } from '../render/compile-document';
import type { Template } from '../model/template.types';
import { BUILTIN_FONT_ORIGIN, builtinFontFile } from './font-registry';

const INTER_FILES = path.join(path.dirname(require.resolve('@fontsource/inter/package.json')), 'files');

/** Body text in Inter bold, a footer in Inter regular: one face only the body uses, one the footer uses too. */
const template = {
  page: { footer: { elements: [{ type: 'text', id: 'f', text: 'Footer line' }] } },
  body: [{ type: 'text', id: 'b', text: 'Body line', style: { fontWeight: 700 } }],
} as Template;

function fontSources(css: string): string[] {
  return [...css.matchAll(/@font-face\{[^}]*font-weight:(\d+)[^}]*src:url\((data:font\/woff2;base64,|https:[^)]*)/g)].map(
    ([, weight, source]) => `${weight} ${source.startsWith('data:') ? 'inline' : source}`,
  );
}

describe('decision 0020: built-in faces served by the printer instead of inlined in every document', () => {
  it('served: the document names a face only its body uses by its file under BUILTIN_FONT_ORIGIN', () => {
    const compiled = compileDocument({ template, data: {}, builtinFonts: 'served' });
    expect(fontSources(compiled.html)).toEqual(['400 inline', `700 ${BUILTIN_FONT_ORIGIN}/inter-latin-700-normal.woff2`]);
  });

  it.each(['inline', 'served'] as const)(
    '%s: the document allows fonts from BUILTIN_FONT_ORIGIN (a reused page keeps the policies of the documents written into it before)',
    (builtinFonts) => {
      expect(compileDocument({ template, data: {}, builtinFonts }).html).toContain(`font-src data: ${BUILTIN_FONT_ORIGIN};`);
    },
  );

  it('served: a face a band uses stays inline, in the band and in the document, the same data URI (a band cannot load a URL)', () => {
    const compiled = compileDocument({ template, data: {}, builtinFonts: 'served' });
    const inDocument = /@font-face\{[^}]*font-weight:400[^}]*\}/.exec(compiled.html)?.[0];
    expect(inDocument).toContain('data:font/woff2;base64,');
    expect(fontSources(compiled.footerHtml ?? '')).toEqual(['400 inline']);
    expect(compiled.footerHtml).toContain(/src:url\([^)]*\)/.exec(inDocument ?? '')?.[0]);
  });

  it('inline (the default): every face is a data URI', () => {
    const compiled = compileDocument({ template, data: {} });
    expect(fontSources(compiled.html)).toEqual(['400 inline', '700 inline']);
    expect(fontSources(compiled.footerHtml ?? '')).toEqual(['400 inline']);
  });

  it('builtinFontFile serves the bytes of a built-in WOFF2 file the URL names', () => {
    const bytes = builtinFontFile(`${BUILTIN_FONT_ORIGIN}/inter-latin-700-normal.woff2`);
    expect(bytes?.equals(readFileSync(path.join(INTER_FILES, 'inter-latin-700-normal.woff2')))).toBe(true);
  });

  it.each([
    ['another origin', 'https://example.com/inter-latin-700-normal.woff2'],
    ['a path out of the font files', `${BUILTIN_FONT_ORIGIN}/../package.json`],
    ['an encoded path', `${BUILTIN_FONT_ORIGIN}/%2e%2e%2fpackage.json`],
    ['a query', `${BUILTIN_FONT_ORIGIN}/inter-latin-700-normal.woff2?x=1`],
    ['a file that is not WOFF2', `${BUILTIN_FONT_ORIGIN}/inter-latin-700-normal.woff`],
    ['a file no package has', `${BUILTIN_FONT_ORIGIN}/inter-latin-750-normal.woff2`],
    ['a name of no built-in family', `${BUILTIN_FONT_ORIGIN}/dejavu-sans-latin-400-normal.woff2`],
    ['the origin alone', `${BUILTIN_FONT_ORIGIN}/`],
  ])('builtinFontFile serves nothing for %s', (_, url) => {
    expect(builtinFontFile(url)).toBeNull();
  });
});
