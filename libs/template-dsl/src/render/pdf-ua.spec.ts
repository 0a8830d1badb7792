import { compileDocument, type Template } from '../index';

const SEAL = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>').toString('base64')}`;

function compile(template: Partial<Template>, data: Record<string, unknown> = {}) {
  return compileDocument({ template: { body: [], ...template }, data: { number: '42', ...data } });
}

describe('issue 34 item 4: a template asking for PDF/UA-1', () => {
  it('is printed tagged and passes its claim to the archival stage', () => {
    const compiled = compile({ pdfUA: 'PDF/UA-1', body: [{ type: 'text', id: 'h', text: 'Invoice', heading: 1 }] });
    expect(compiled.issues).toEqual([]);
    expect(compiled.tagged).toBe(true);
    expect(compiled.archival.pdfUA).toBe('PDF/UA-1');
    expect(compiled.html).toContain('<h1');
  });

  it('every figure of the body (image, QR code, barcode, chart) needs "alt": an Error naming the element; bands do not', () => {
    const compiled = compile({
      pdfUA: 'PDF/UA-1',
      page: { header: { elements: [{ type: 'image', id: 'band-logo', source: SEAL }] } },
      body: [
        { type: 'image', id: 'logo', source: SEAL },
        { type: 'qrCode', id: 'qr', value: 'x' },
        { type: 'barcode', id: 'bar', format: 'code128', value: 'x' },
        { type: 'chart', id: 'chart', chartType: 'bar', source: 'rows', labelField: 'l', series: [{ field: 'v' }] },
        { type: 'image', id: 'ornament', source: SEAL, alt: '' },
      ],
    }, { rows: [{ l: 'a', v: 1 }] });
    const missing = compiled.issues.filter((i) => i.description.includes('asks for alternative text'));
    expect(missing.map((i) => [i.elementId, i.type, i.severity])).toEqual([
      ['logo', 'SchemaInvalid', 'Error'],
      ['qr', 'SchemaInvalid', 'Error'],
      ['bar', 'SchemaInvalid', 'Error'],
      ['chart', 'SchemaInvalid', 'Error'],
    ]);
  });

  it('alternative texts: an SVG figure gets role="img" and aria-label, "" hides it as decoration, an empty binding is a Warning', () => {
    const compiled = compile(
      {
        pdfUA: 'PDF/UA-1',
        body: [
          { type: 'qrCode', id: 'qr', value: 'x', alt: 'Pay invoice {{ number }}' },
          { type: 'barcode', id: 'bar', format: 'code128', value: 'x', alt: '' },
          { type: 'image', id: 'logo', source: SEAL, alt: '{{ missing }}' },
        ],
      },
      { missing: '' },
    );
    expect(compiled.html).toContain('<svg role="img" aria-label="Pay invoice 42" xmlns=');
    expect(compiled.html).toContain('<svg aria-hidden="true" xmlns=');
    expect(compiled.html).toContain('alt="">');
    expect(compiled.issues).toEqual([expect.objectContaining({ elementId: 'logo', type: 'BindingFailedAtRender', severity: 'Warning', description: expect.stringContaining('treats the image as decoration') as string })]);
  });

  it('watermarks are hidden from the structure (printed as artifacts)', () => {
    const compiled = compileDocument({ template: { pdfUA: 'PDF/UA-1', page: { watermark: { text: 'COPY' } }, body: [] }, data: {}, watermark: 'TEST' });
    expect(compiled.html).toContain('<div class="wm" aria-hidden="true">TEST</div>');
    expect(compiled.html).toContain('<div class="uw0" aria-hidden="true">COPY</div>');
  });

  it('pages that differ would drop the tags: an Error, not a silent untagged PDF', () => {
    const compiled = compile({ pdfUA: 'PDF/UA-1', page: { footer: { elements: [{ type: 'text', id: 'f', text: 'x' }], first: { elements: [] } } } });
    expect(compiled.issues).toEqual([expect.objectContaining({ type: 'SchemaInvalid', severity: 'Error', description: expect.stringContaining('PDF/UA-1 needs a tagged PDF') as string })]);
  });
});
