import { crc32, deflateSync } from 'node:zlib';
import { IssueSeverity, RenderIssueType } from '@docrender/contracts';
import { expectBlockedInProductionPrintedInTest, useRenderService } from '../test/render-service.harness';
import { pdfInfo, pdfText } from '../test/pdf-tools';

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A complete, valid PNG of `side` × `side` black pixels, 1 bit grey: a few tens of KB of file that Chromium
 * would decode into side² × 4 bytes (1.6 GB for 20,000).
 */
function blackSquarePng(side: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 0, 0, 0, 0], 8);
  // every row: filter byte 0 and side/8 bytes of zero bits
  const rows = Buffer.alloc(side * (1 + Math.ceil(side / 8)));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

describe('issue 31 item 2: document caps in the render service (real Chromium)', () => {
  const service = useRenderService('caps');

  it('a PNG of 20,000 × 20,000 pixels in the data is refused from its header, naming the element, before Chromium sees it', async () => {
    const png = blackSquarePng(20_000);
    expect(png.length).toBeLessThan(400_000);
    const template = {
      body: [
        { type: 'text', id: 'caption', text: 'Photo below' },
        { type: 'image', id: 'photo', source: '{{ photo }}', width: '50mm', height: '50mm' },
      ],
    };
    const data = { photo: `data:image/png;base64,${png.toString('base64')}` };
    const expected = [
      expect.objectContaining({
        type: RenderIssueType.UnresolvedImage,
        severity: IssueSeverity.Warning,
        elementId: 'photo',
        description: expect.stringContaining('it is 20,000 × 20,000 pixels (400 megapixels); an image may have 50 megapixels'),
      }),
    ];
    const pdf = await expectBlockedInProductionPrintedInTest(service, template, data, expected);
    // a test key prints the document without the image: the caption, and no image in the PDF
    expect(await pdfText(pdf)).toContain('Photo below');
    expect(pdf.includes('/Subtype /Image')).toBe(false);
  });

  it.each([
    ['1 mm', { width: '1mm', height: '1mm' }, 'page.size 1 mm × 1 mm is outside the supported range'],
    ['10 m', { width: '10000mm', height: '10000mm' }, 'page.size 10000 mm × 10000 mm is outside the supported range'],
  ])('a page size of %s is a Warning naming page.size: production is blocked, a test render prints on A4', async (_name, size, description) => {
    const template = { page: { size }, body: [{ type: 'text', id: 'hello', text: 'Hello' }] };
    const expected = [expect.objectContaining({ type: RenderIssueType.RenderLayoutDegraded, severity: IssueSeverity.Warning, elementId: null, description: expect.stringContaining(description) })];
    const info = await pdfInfo(await expectBlockedInProductionPrintedInTest(service, template, {}, expected));
    expect(info['Page size']).toMatch(/ pts \(A4\)$/);
  });
});
