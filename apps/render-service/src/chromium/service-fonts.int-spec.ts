import { compileDocument, Template } from '@docrender/template-dsl';
import { pagePngs, pdfFontNames, pdfText } from '../../test/pdf-tools';
import { printCompiled, printPoolForTests } from '../../test/print-pool';
import type { BrowserPool } from './browser-pool';

/** One paragraph per script, printed in a document of the script's language, and the Noto family that must draw it. */
const SCRIPTS: readonly { name: string; locale: string; text: string; font: RegExp }[] = [
  { name: 'Thai', locale: 'th-TH', text: 'ใบกำกับภาษี', font: /^NotoSansThai-Regular$/ },
  { name: 'Hindi', locale: 'hi-IN', text: 'कर चालान', font: /^NotoSansDevanagari-Regular$/ },
  { name: 'Arabic', locale: 'ar-SA', text: 'فاتورة ضريبية', font: /^NotoSansArabic-Regular$/ },
  { name: 'Hebrew', locale: 'he-IL', text: 'חשבונית מס', font: /^NotoSansHebrew-Regular$/ },
  { name: 'Greek', locale: 'el-GR', text: 'Τιμολόγιο', font: /^Inter-Regular$/ },
];

/**
 * CJK text and the Noto Sans CJK variant its language must get. Noto Sans CJK is a collection of CFF (PostScript)
 * outlines, which Chromium's PDF backend embeds as Type 3 glyph procedures without a font name (pdffonts: "[none]",
 * Type 3): which face drew the text is proven by the page image instead. The Han characters have other forms in
 * another language (直, 骨, 角, 写, 次, 今; the fonts' `locl` feature follows the language).
 */
const CJK: readonly { name: string; lang: string; text: string; variant: string; other: string }[] = [
  { name: 'Korean', lang: 'ko-KR', text: '세금계산서 直骨角', variant: 'KR', other: 'zh-CN' },
  { name: 'Chinese (simplified)', lang: 'zh-CN', text: '增值税发票 直骨角写', variant: 'SC', other: 'ja-JP' },
  { name: 'Chinese (traditional)', lang: 'zh-TW', text: '統一發票 直骨角次', variant: 'TC', other: 'zh-CN' },
  { name: 'Japanese', lang: 'ja-JP', text: '納品書 ひらがな 直骨角今', variant: 'JP', other: 'zh-CN' },
];

/** What a service document may embed: the built-in @fontsource faces, the built-in script fonts, Type 3 glyphs (CJK). */
const SERVICE_FONT = /^(Inter|NotoSerif|RobotoMono|NotoSans(Arabic|Hebrew|Devanagari|Thai)?)-|^\[none\]$/;

const page = (lang: string, family: string, text: string): string =>
  `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"></head><body style="margin:0"><p style="font-family:${family};font-size:24pt">${text}</p></body></html>`;

describe('issue 33 item 2: Chromium prints with the fonts the service owns, never with the host’s', () => {
  let pool: BrowserPool;

  printPoolForTests('docrender render-service (service fonts test)', (started) => (pool = started));

  it.each(SCRIPTS.map((s) => [s.name, s] as const))('%s text embeds its Noto family and no host font', async (_name, script) => {
    const template = { locale: script.locale, body: [{ type: 'text', id: 'p', text: `Invoice ${script.text}` }] } as Template;
    const compiled = compileDocument({ template, data: {}, builtinFonts: 'served' });
    expect(compiled.issues).toEqual([]);
    const pdf = await printCompiled(pool, compiled);
    const fonts = await pdfFontNames(pdf);
    expect({ fonts, drawnBy: fonts.filter((f) => script.font.test(f)).length }).toEqual({ fonts, drawnBy: 1 });
    expect(fonts.filter((f) => !SERVICE_FONT.test(f))).toEqual([]);
    expect((await pdfText(pdf)).replace(/\s+/g, ' ')).toContain(script.text.split(' ')[0]);
  });

  it.each(CJK.map((s) => [s.name, s] as const))('%s text is drawn by Noto Sans CJK of its language, and validates without an issue', async (_name, cjk) => {
    const template = { locale: cjk.lang, body: [{ type: 'text', id: 'p', text: cjk.text }] } as Template;
    const compiled = compileDocument({ template, data: {}, builtinFonts: 'served' });
    expect(compiled.issues).toEqual([]);
    const pdf = await printCompiled(pool, compiled);
    expect((await pdfFontNames(pdf)).filter((f) => !SERVICE_FONT.test(f))).toEqual([]);
    expect((await pdfText(pdf)).replace(/\s+/g, ' ')).toContain(cjk.text);
    // the same text in Noto Sans (no CJK glyphs: the line box is the same either way), drawn by fallback or by name
    const look = async (family: string, lang = cjk.lang): Promise<string> => {
      const printed = await printCompiled(pool, { html: page(lang, family, cjk.text), tagged: false, headerHtml: null, footerHtml: null });
      return (await pagePngs(printed, 72))[0].toString('base64');
    };
    const fallback = await look("'Noto Sans'");
    expect(fallback === (await look(`'Noto Sans','Noto Sans CJK ${cjk.variant}'`))).toBe(true);
    // and the language decides the forms: the same text in another language prints otherwise
    expect(fallback === (await look("'Noto Sans'", cjk.other))).toBe(false);
  });

  it('a host font named by the markup is not found: DejaVu, Liberation and Droid stay out of the PDF', async () => {
    const html =
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"></head><body>' +
      "<p style=\"font-family:'DejaVu Sans'\">DejaVu? Ω</p><p style=\"font-family:'Liberation Serif'\">Liberation?</p>" +
      "<p style=\"font-family:'Droid Sans Fallback'\">Droid? 中文</p><p style=\"font-family:serif\">serif</p><p>default</p></body></html>";
    const fonts = await pdfFontNames(await printCompiled(pool, { html, tagged: false, headerHtml: null, footerHtml: null }));
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.filter((f) => !/^NotoSans-Regular$|^\[none\]$/.test(f))).toEqual([]);
  });
});
