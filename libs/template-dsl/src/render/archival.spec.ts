import { compileDocument, imageReferencesOf, validateTemplate, type Template } from '../index';
import { ATTACHMENT_LIMITS } from './archival';

const body: Template['body'] = [{ type: 'text', id: 't', text: 'Invoice {{ number }}' }];
const attachment = { id: 'file', name: '{{ file.name }}', mimeType: 'text/plain', description: 'For {{ number }}', relationship: 'Data' as const, content: '{{ file.content }}' };
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function compile(template: Partial<Template>, data: Record<string, unknown>) {
  return compileDocument({ template: { body, ...template }, data: { number: '42', ...data } });
}

describe('issue 34 item 2: metadata and attachments of the template', () => {
  it('metadata fields are text with bindings; the language is the document locale; pdfA is passed on', () => {
    const compiled = compile(
      { locale: 'de-DE', pdfA: 'PDF/A-3u', metadata: { author: '{{ seller }}', subject: 'Invoice {{ number }}', keywords: 'invoice, {{ number }}', creator: 'ERP' } },
      { seller: 'ACME' },
    );
    expect(compiled.issues).toEqual([]);
    expect(compiled.archival).toEqual({ pdfA: 'PDF/A-3u', pdfUA: null, author: 'ACME', subject: 'Invoice 42', keywords: 'invoice, 42', creator: 'ERP', language: 'de-DE', attachments: [] });
  });

  it('an attachment from the data is decoded with its name, MIME type, description and relationship', () => {
    const compiled = compile({ attachments: [attachment] }, { file: { name: 'a.txt', content: `${base64('hello')}\n` } });
    expect(compiled.issues).toEqual([]);
    expect(compiled.archival.attachments).toEqual([
      { id: 'file', name: 'a.txt', mimeType: 'text/plain', description: 'For 42', relationship: 'Data', bytes: new Uint8Array(Buffer.from('hello')) },
    ]);
  });

  it.each([
    ['not Base64', { name: 'a.txt', content: 'abc$' }, 'its content is not Base64'],
    ['empty', { name: 'a.txt', content: '' }, 'its content is empty'],
    ['a name with a slash', { name: '../a.txt', content: base64('x') }, 'its name must be'],
  ])('%s: a SchemaInvalid error naming the attachment, and the attachment is left out', (_case, file, reason) => {
    const compiled = compile({ attachments: [attachment] }, { file });
    expect(compiled.archival.attachments).toEqual([]);
    expect(compiled.issues).toEqual([expect.objectContaining({ type: 'SchemaInvalid', severity: 'Error', elementId: 'file', description: expect.stringContaining(reason) as string })]);
  });

  it('optional: an empty content leaves the attachment out without an issue', () => {
    const compiled = compile({ attachments: [{ ...attachment, optional: true }] }, { file: { name: 'a.txt', content: '' } });
    expect(compiled.issues).toEqual([]);
    expect(compiled.archival.attachments).toEqual([]);
  });

  it(`size limits: one attachment above ${ATTACHMENT_LIMITS.maxBytes} bytes is refused before it is decoded`, () => {
    const content = 'A'.repeat(((ATTACHMENT_LIMITS.maxBytes + 3) / 3) * 4 + 4);
    const compiled = compile({ attachments: [attachment] }, { file: { name: 'big.bin', content } });
    expect(compiled.archival.attachments).toEqual([]);
    expect(compiled.issues).toEqual([expect.objectContaining({ type: 'SchemaInvalid', elementId: 'file', description: expect.stringContaining('more than the 10485760') as string })]);
  });

  it('two attachments may not share a name', () => {
    const compiled = compile({ attachments: [attachment, { ...attachment, id: 'again' }] }, { file: { name: 'a.txt', content: base64('x') } });
    expect(compiled.archival.attachments.map((a) => a.id)).toEqual(['file']);
    expect(compiled.issues).toEqual([expect.objectContaining({ elementId: 'again', description: expect.stringContaining('already named "a.txt"') as string })]);
  });

  it('validation: PDF/A-2 with attachments, bad bindings in metadata, and ids shared with elements are errors naming the path', () => {
    const validation = validateTemplate({
      body,
      pdfA: 'PDF/A-2b',
      metadata: { author: '{{ seller' },
      attachments: [{ ...attachment, id: 't' }],
    });
    expect(validation.ok).toBe(false);
    const messages = validation.ok ? [] : validation.errors.map((e) => `${e.path}: ${e.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\$\.metadata\.author: binding syntax error/),
        expect.stringMatching(/^\$\.attachments\[0\]: PDF\/A-2b allows only PDF\/A files as attachments/),
        expect.stringMatching(/the id "t" is already used by \$\.attachments\[0\]/),
      ]),
    );
    expect(validateTemplate({ body, pdfA: 'PDF/A-1b' }).ok).toBe(false);
  });

  describe('an attachment from the organisation\'s assets (`asset`)', () => {
    const fromAsset = { id: 'terms', name: 'terms.pdf', mimeType: 'application/pdf', relationship: 'Supplement' as const, asset: 'legal/{{ termsFile }}' };
    const template = { body, attachments: [fromAsset] };

    it('is listed with the image references and attached with the bytes handed back', () => {
      expect(imageReferencesOf(template, { termsFile: 'terms-2026.pdf' })).toEqual(['attachment:asset:legal/terms-2026.pdf']);
      const pdf = Buffer.from('%PDF-1.7 terms');
      const images = new Map([['attachment:asset:legal/terms-2026.pdf', { dataUri: `data:application/octet-stream;base64,${pdf.toString('base64')}` }]]);
      const compiled = compileDocument({ template, data: { number: '42', termsFile: 'terms-2026.pdf' }, images });
      expect(compiled.issues).toEqual([]);
      expect(compiled.archival.attachments).toEqual([
        { id: 'terms', name: 'terms.pdf', mimeType: 'application/pdf', description: null, relationship: 'Supplement', bytes: new Uint8Array(pdf) },
      ]);
    });

    it('one that cannot be read, or whose name is no asset name, is an Error naming the attachment', () => {
      const images = new Map([['attachment:asset:legal/gone.pdf', { error: "the organisation has no asset named 'legal/gone.pdf'" }]]);
      const missing = compileDocument({ template, data: { number: '42', termsFile: 'gone.pdf' }, images });
      expect(missing.archival.attachments).toEqual([]);
      expect(missing.issues).toEqual([
        expect.objectContaining({ type: 'SchemaInvalid', elementId: 'terms', description: expect.stringContaining('could not be read (the organisation has no asset named') as string }),
      ]);
      const invalid = compileDocument({ template, data: { number: '42', termsFile: 'has space.pdf' } });
      expect(invalid.issues).toEqual([expect.objectContaining({ elementId: 'terms', description: expect.stringContaining('is not an asset name') as string })]);
    });

    it('validation: exactly one of content and asset', () => {
      for (const both of [{ ...fromAsset, content: 'eA==' }, { id: 'x', name: 'x', mimeType: 'text/plain' }]) {
        const validation = validateTemplate({ body, attachments: [both] });
        expect(validation.ok ? [] : validation.errors.map((e) => e.message)).toContain('needs either "content" or "asset"');
      }
    });
  });
});
