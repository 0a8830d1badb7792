import { IssueSeverity, RenderIssueType } from '@docrender/contracts';
import { pdfFontNames, pdfText } from '../test/pdf-tools';
import { expectBlockedInProductionPrintedInTest, useRenderService } from '../test/render-service.harness';

describe('issue 33 items 2 and 3: a Japanese delivery note with Korean, Thai and Hindi lines, through the render service', () => {
  const service = useRenderService('glyphs');
  const template = {
    locale: 'ja-JP',
    body: [
      { type: 'text', id: 'title', text: '納品書' },
      { type: 'text', id: 'korean', text: '세금계산서' },
      { type: 'text', id: 'thai', text: 'ใบกำกับภาษี' },
      { type: 'text', id: 'hindi', text: 'कर चालान' },
      { type: 'text', id: 'note', text: '{{ note }}' },
    ],
  };

  it('prints every line in the service’s fonts with a production key, no issue', async () => {
    const { pdf } = await service.renderCleanly(template, { note: 'Arabic فاتورة and Hebrew חשבונית' });
    const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
    for (const line of ['納品書', '세금계산서', 'ใบกำกับภาษี', 'कर चालान', 'فاتورة', 'חשבונית']) expect(text).toContain(line);
    const fonts = await pdfFontNames(pdf);
    for (const family of ['NotoSansThai-Regular', 'NotoSansDevanagari-Regular', 'NotoSansArabic-Regular', 'NotoSansHebrew-Regular']) expect(fonts).toContain(family);
    // Noto Sans CJK: Type 3 glyphs without a name (decision 0030); no font of the host
    expect(fonts.filter((f) => !/^(Inter|NotoSans(Thai|Devanagari|Arabic|Hebrew))-Regular$|^\[none\]$/.test(f))).toEqual([]);
  });

  it('a character no font can draw (U+E000) blocks a production render, naming the element and the code point', async () => {
    const data = { note: 'Private \uE000 use' };
    const expected = [
      expect.objectContaining({
        type: RenderIssueType.UnresolvedFont,
        severity: IssueSeverity.Warning,
        elementId: 'note',
        description: expect.stringContaining('has a glyph for "U+E000"'),
      }),
    ];
    await expectBlockedInProductionPrintedInTest(service, template, data, expected);
  });
});
