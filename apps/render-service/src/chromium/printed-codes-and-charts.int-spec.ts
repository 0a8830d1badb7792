import { compileDocument, Template } from '@docrender/template-dsl';
import { dmtxRead, zbarRead, zxingRead } from '../../test/barcode-readers';
import { firstPagePng, pagePngs, pdfText } from '../../test/pdf-tools';
import { decodePng } from '../../test/png-pixels';
import { printCompiled, printPoolForTests } from '../../test/print-pool';
import type { BrowserPool } from './browser-pool';

type Reader = 'zbar' | 'dmtx' | 'zxing';

/** Issue 21 item 4: every format, its value, the text a scanner must read back, and which reader reads it. */
const CODES: { format: string; value: string; reads: string; reader: Reader }[] = [
  { format: 'qr', value: 'Grüße € — https://example.com/?a=1&b=2', reads: 'QR-Code:Grüße € — https://example.com/?a=1&b=2', reader: 'zbar' },
  { format: 'datamatrix', value: 'Grüße € 0123456789', reads: 'Grüße € 0123456789', reader: 'dmtx' },
  { format: 'pdf417', value: 'PDF417 ACME-42 0123456789', reads: 'PDF417 ACME-42 0123456789', reader: 'zxing' },
  { format: 'aztec', value: 'Aztec ACME-42 0123456789', reads: 'Aztec ACME-42 0123456789', reader: 'zxing' },
  { format: 'code128', value: 'JJD0099999999', reads: 'CODE-128:JJD0099999999', reader: 'zbar' },
  // GS1-128: zbar prints the element string without brackets (AI 01 and 3103 are fixed length, no separator)
  { format: 'gs1-128', value: '(01)09521234543213(3103)000123', reads: 'CODE-128:01095212345432133103000123', reader: 'zbar' },
  { format: 'code39', value: 'CODE-39 $/+%', reads: 'CODE-39:CODE-39 $/+%', reader: 'zbar' },
  // check digits are added to values given without them
  { format: 'ean8', value: '9638507', reads: 'EAN-8:96385074', reader: 'zbar' },
  { format: 'ean13', value: '400638133393', reads: 'EAN-13:4006381333931', reader: 'zbar' },
  { format: 'upca', value: '03600029145', reads: 'UPC-A:036000291452', reader: 'zbar' },
  { format: 'upce', value: '0123456', reads: 'UPC-E:01234565', reader: 'zbar' },
  { format: 'itf14', value: '1540014128876', reads: 'I2/5:15400141288763', reader: 'zbar' },
];

describe('issue 21: codes, charts and the page background as printed by Chromium', () => {
  let pool: BrowserPool;

  printPoolForTests('docrender render-service (codes and charts test)', (started) => (pool = started));

  it('issue 21 item 4: every barcode format prints with its quiet zone and decodes back to its input (zbarimg, dmtxread, ZXing)', async () => {
    const body = CODES.flatMap(({ format, value }, i) => [
      ...(i > 0 ? [{ type: 'pageBreak', id: `break-${i}` }] : []),
      { type: 'barcode', id: `code-${i}`, format, value, width: '80mm' },
    ]);
    const template = { page: { size: { width: '140mm', height: '100mm' }, orientation: 'landscape' }, body } as Template;
    const compiled = compileDocument({ template, data: {} });
    expect(compiled.issues).toEqual([]);
    const pages = await pagePngs(await printCompiled(pool, compiled), 200);
    expect(pages).toHaveLength(CODES.length);
    const read: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const [i, code] of CODES.entries()) {
      const page = pages[i];
      expected[code.format] = code.reads;
      if (code.reader === 'zbar') read[code.format] = (await zbarRead(page)).join('\n');
      else if (code.reader === 'dmtx') read[code.format] = await dmtxRead(page);
      else read[code.format] = zxingRead(page, code.format as 'pdf417' | 'aztec');
    }
    expect(read).toEqual(expected);
  });

  it('issue 21 item 3: chart axes, value labels and pie values print in the locale (de-DE and en-US, pdftotext)', async () => {
    const chartsIn = (locale: string): Template =>
      ({
        locale,
        currency: 'EUR',
        body: [
          {
            type: 'chart',
            id: 'revenue',
            chartType: 'bar',
            source: 'months',
            labelField: 'month',
            labelFormat: 'month',
            width: '120mm',
            height: '70mm',
            series: [{ field: 'revenue', name: 'Revenue' }],
          },
          { type: 'chart', id: 'share', chartType: 'pie', source: 'regions', labelField: 'region', width: '120mm', height: '70mm', series: [{ field: 'revenue' }] },
          {
            type: 'chart',
            id: 'amounts',
            chartType: 'pie',
            source: 'regions',
            labelField: 'region',
            width: '120mm',
            height: '70mm',
            showValues: true,
            valueFormat: 'currency',
            series: [{ field: 'revenue' }],
          },
        ],
      }) as Template;
    const data = {
      months: [
        { month: '2026-01', revenue: 3500000 },
        { month: '2026-02', revenue: 2750000.5 },
      ],
      regions: [
        { region: 'North', revenue: 1768427.55 },
        { region: 'South', revenue: 3123456.45 },
      ],
    };
    const text: Record<string, string> = {};
    for (const locale of ['de-DE', 'en-US']) {
      const compiled = compileDocument({ template: chartsIn(locale), data });
      expect(compiled.issues).toEqual([]);
      text[locale] = (await pdfText(await printCompiled(pool, compiled), { raw: true })).replace(/\s+/g, ' ');
    }
    // value axis (default valueFormat "number"), month labels, pie shares, pie values as currency
    for (const shown of ['3.000.000', 'Jan. 2026', 'Feb. 2026', '36,2 %', '63,8 %', '1.768.427,55 €', '3.123.456,45 €']) expect(text['de-DE']).toContain(shown);
    for (const shown of ['3,000,000', 'Jan 2026', 'Feb 2026', '36.2%', '63.8%', '€1,768,427.55', '€3,123,456.45']) expect(text['en-US']).toContain(shown);
    expect(text['de-DE']).not.toContain('3,000,000');
    expect(text['de-DE']).not.toContain('1768427.55');
  });

  it('issue 21 item 9: a page background covers the whole sheet, margins included, whatever the margins (docs/template-dsl.md)', async () => {
    // a 2 × 1 frame: left half red, right half blue, stretched over an A5 landscape sheet with unequal margins
    const frame = `data:image/svg+xml;base64,${Buffer.from(
      "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 2 1' preserveAspectRatio='none'><rect width='1' height='1' fill='#ff0000'/><rect x='1' width='1' height='1' fill='#0000ff'/></svg>",
    ).toString('base64')}`;
    const template = {
      page: { size: 'A5', orientation: 'landscape', margins: { top: '30mm', right: '10mm', bottom: '15mm', left: '40mm' }, background: { source: frame, fit: 'stretch' } },
      body: [{ type: 'text', id: 't', text: 'Certificate' }],
    } as Template;
    const compiled = compileDocument({ template, data: {} });
    expect(compiled.issues).toEqual([]);
    const { width, height, rgb } = decodePng(await firstPagePng(await printCompiled(pool, compiled), 40));
    const colourAt = (x: number, y: number): string => {
      const i = (Math.round(y) * width + Math.round(x)) * 3;
      return rgb[i] > 200 && rgb[i + 2] < 60 ? 'red' : rgb[i + 2] > 200 && rgb[i] < 60 ? 'blue' : `rgb(${rgb[i]},${rgb[i + 1]},${rgb[i + 2]})`;
    };
    // the corners (inside the margins) and both sides of the sheet's middle: the frame is on the sheet, not the page area
    expect([colourAt(2, 2), colourAt(2, height - 3), colourAt(width / 2 - 3, height / 2), colourAt(width / 2 + 3, height / 2), colourAt(width - 3, 2), colourAt(width - 3, height - 3)]).toEqual([
      'red',
      'red',
      'red',
      'blue',
      'blue',
      'blue',
    ]);
  });
});
