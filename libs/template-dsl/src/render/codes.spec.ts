import { RenderIssueType } from '@docrender/contracts';
import { Template } from '../model/template.types';
import { CODE_FORMATS, codeSvg } from './codes';
import { compileDocument } from './compile-document';

const VALID: Record<(typeof CODE_FORMATS)[number], string> = {
  qr: 'Grüße €',
  datamatrix: 'Grüße €',
  pdf417: 'PDF417',
  aztec: 'Aztec',
  code128: 'JJD0099999999',
  'gs1-128': '(01)09521234543213(3103)000123',
  code39: 'CODE-39',
  ean8: '9638507',
  ean13: '400638133393',
  upca: '03600029145',
  upce: '0123456',
  itf14: '1540014128876',
};

function viewBoxWidth(svg: string): number {
  return Number(/viewBox="0 0 ([0-9.]+) /.exec(svg)?.[1]);
}

/** The left edge of the first bar and the right edge of the last (bwip-js draws bars as vertical strokes). */
function barEdges(svg: string): { left: number; right: number } {
  let [left, right] = [Infinity, -Infinity];
  for (const group of svg.matchAll(/<path stroke="currentColor" stroke-width="([0-9.]+)" d="([^"]+)"/g)) {
    const half = Number(group[1]) / 2;
    for (const m of group[2].matchAll(/M([0-9.]+) /g)) {
      left = Math.min(left, Number(m[1]) - half);
      right = Math.max(right, Number(m[1]) + half);
    }
  }
  return { left, right };
}

describe('codes through bwip-js (issue 21 item 4)', () => {
  it.each(CODE_FORMATS)('issue 21 item 4: %s draws a valid value as an SVG of paths in the text colour', (format) => {
    const outcome = codeSvg(format, VALID[format], { showText: true });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="[0-9. ]+"/);
    expect(outcome.svg).toContain('fill="currentColor"');
    expect(outcome.svg).not.toContain('#000000');
    expect(outcome.svg).not.toMatch(/<(?!svg|path|\/svg)/);
  });

  it('issue 21 item 4: a Code 128 keeps a quiet zone of 10 modules on each side', () => {
    const outcome = codeSvg('code128', 'Hello', { showText: false });
    if (!outcome.ok) throw new Error(outcome.reason);
    // start (11) + 5 characters (55) + check (11) + stop (13) = 90 modules of one unit, plus 2 × 10
    expect(viewBoxWidth(outcome.svg)).toBe(110);
    expect(barEdges(outcome.svg)).toEqual({ left: 10, right: 100 });
  });

  it('issue 21 item 4: a QR code keeps a quiet zone of 4 modules on every side', () => {
    const outcome = codeSvg('qr', 'Hello', { showText: false, errorCorrection: 'M' });
    if (!outcome.ok) throw new Error(outcome.reason);
    // version 1: 21 modules, one SVG unit each, plus 2 × 4; the finder pattern starts at (4, 4)
    expect(viewBoxWidth(outcome.svg)).toBe(21 + 8);
    expect(outcome.svg).toMatch(/<path d="M4 4h7v1h-7z/);
  });

  it('issue 21 item 2/4: a Code 128 of "Grüße €" is refused with the character it cannot hold (it used to print garbage)', () => {
    expect(codeSvg('code128', 'Grüße €', { showText: true })).toEqual({
      ok: false,
      reason: 'Code 128 holds printable ASCII characters only; "ü" at position 3 is not one',
    });
  });

  it.each([
    ['ean13', '4006381333932', 'Incorrect EAN-13 check digit provided'],
    ['ean13', '12345', 'EAN-13 holds 12 or 13 digits'],
    ['ean8', '96385075', 'check digit'],
    ['upca', 'ABCDEFGHIJK', 'UPC-A holds 11 or 12 digits'],
    ['upce', '12345', 'UPC-E holds 7 or 8 digits'],
    ['itf14', '15400141288760', 'the check digit should be 3'],
    ['code39', 'lower case', 'Code 39 must contain only digits, capital letters'],
    ['gs1-128', '0109521234543213', 'application identifiers in brackets'],
    ['gs1-128', '(01)09521234543214', 'Bad checksum'],
    ['qr', 'x'.repeat(3000), 'no QR code holds more than 2953'],
    ['code128', 'x'.repeat(300), 'longer than 256 characters'],
  ] as const)('issue 21 item 2/4: %s of %j gives a reason (%s)', (format, value, reason) => {
    const outcome = codeSvg(format, value, { showText: true });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.reason).toContain(reason);
  });

  it('issue 21 item 2: in a document, a value the code cannot hold is BindingFailedAtRender and no code is drawn', () => {
    const template = { body: [{ type: 'barcode', id: 'parcel', format: 'code128', value: '{{ v }}' }] } as Template;
    const doc = compileDocument({ template, data: { v: 'Grüße €' } });
    expect(doc.issues.map((i) => [i.type, i.elementId, i.description])).toEqual([
      [
        RenderIssueType.BindingFailedAtRender,
        'parcel',
        '"Grüße €" cannot be encoded as Code 128: Code 128 holds printable ASCII characters only; "ü" at position 3 is not one; no code is drawn.',
      ],
    ]);
    expect(doc.html).not.toContain('<svg');
  });

  it('issue 21 item 2: showText on a 2D code and errorCorrection on a non-QR code are reported as ignored', () => {
    const template = {
      body: [
        { type: 'barcode', id: 'dm', format: 'datamatrix', value: 'x', showText: true },
        { type: 'barcode', id: 'pdf', format: 'pdf417', value: 'x', errorCorrection: 'H' },
      ],
    } as Template;
    expect(compileDocument({ template, data: {} }).issues.map((i) => [i.type, i.elementId, i.description])).toEqual([
      [RenderIssueType.InvalidLayout, 'dm', 'A DataMatrix has no human-readable text; showText is ignored.'],
      [RenderIssueType.InvalidLayout, 'pdf', 'errorCorrection applies to QR codes only; the PDF417 ignores it.'],
    ]);
  });
});
