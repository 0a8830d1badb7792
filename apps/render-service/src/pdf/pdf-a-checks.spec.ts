import { PDFDocument, PDFName, StandardFonts } from '@cantoo/pdf-lib';
import { makeArchivalPdf, type ArchivalPdfRequest } from './archival-pdf';
import { archiveDocument } from './archival-stage';

/** A profile of three components is all the checks look at; the stage embeds the bytes as given. */
const OUTPUT_INTENT = { icc: new Uint8Array(128), identifier: 'sRGB IEC61966-2.1' };

function request(overrides: Partial<ArchivalPdfRequest> = {}): ArchivalPdfRequest {
  return {
    level: 'PDF/A-3b',
    pdfUA: null,
    info: { title: 'T', author: null, subject: null, keywords: null, creator: 'c', producer: 'p', language: 'en', created: new Date(Date.UTC(2026, 10, 29)) },
    attachments: [],
    xmpExtensions: [],
    outputIntent: OUTPUT_INTENT,
    ...overrides,
  };
}

/** A one-page PDF made by pdf-lib; `font` draws text in a standard font, which is not embedded. */
async function pdfWith(options: { font?: boolean; javaScript?: boolean }): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage();
  if (options.font) page.drawText('x', { font: await document.embedFont(StandardFonts.Helvetica) });
  if (options.javaScript) document.catalog.set(PDFName.of('OpenAction'), document.context.obj({ Type: 'Action', S: 'JavaScript', JS: 'app.alert(1)' }));
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

describe("issue 34 item 5: the archival stage's own checks (no Java)", () => {
  it('a PDF that meets the rules it can check passes, with the rules listed', async () => {
    const outcome = await makeArchivalPdf(await pdfWith({}), request());
    expect(outcome.conformant).toBe(true);
    expect(outcome.checked).toEqual(expect.arrayContaining(['6.1.3', '6.2.3', '6.2.11.4', '6.6.1', '6.6.2.1', '6.6.3', '6.8']));
  });

  it('6.2.11.4: a font that is not embedded fails, naming the font', async () => {
    const outcome = await makeArchivalPdf(await pdfWith({ font: true }), request());
    expect(outcome.conformant).toBe(false);
    if (!outcome.conformant) expect(outcome.failures).toContainEqual({ rule: '6.2.11.4', message: 'font Helvetica is not embedded' });
  });

  it('6.6.1: a JavaScript open action fails', async () => {
    const outcome = await makeArchivalPdf(await pdfWith({ javaScript: true }), request());
    expect(outcome.conformant).toBe(false);
    if (!outcome.conformant) expect(outcome.failures.map((f) => f.rule)).toContain('6.6.1');
  });

  it('6.2.11.7: conformance U asks a ToUnicode map of every font', async () => {
    const outcome = await makeArchivalPdf(await pdfWith({ font: true }), request({ level: 'PDF/A-3u' }));
    expect(outcome.conformant).toBe(false);
    if (!outcome.conformant) expect(outcome.failures).toContainEqual({ rule: '6.2.11.7', message: 'font Helvetica has no /ToUnicode map' });
  });

  it('6.8: PDF/A-2 output with an embedded file fails', async () => {
    const attachment = { name: 'a.txt', mimeType: 'text/plain', description: null, relationship: 'Data' as const, bytes: new Uint8Array([65]) };
    const outcome = await makeArchivalPdf(await pdfWith({}), request({ level: 'PDF/A-2b', attachments: [attachment] }));
    expect(outcome.conformant).toBe(false);
    if (!outcome.conformant) expect(outcome.failures).toContainEqual({ rule: '6.8', message: 'PDF/A-2 output carries embedded files' });
  });

  it('a failed rule becomes a SchemaInvalid issue naming the rule, and no PDF', async () => {
    const archival = { pdfA: 'PDF/A-3b' as const, pdfUA: null, author: null, subject: null, keywords: null, creator: null, language: 'en', attachments: [] };
    const outcome = await archiveDocument(await pdfWith({ font: true }), { title: 'T', archival }, 'docrender render-service');
    expect(outcome.pdf).toBeNull();
    if (outcome.pdf === null) {
      expect(outcome.issues).toEqual([
        expect.objectContaining({ type: 'SchemaInvalid', severity: 'Error', description: expect.stringContaining('fails rule 6.2.11.4 (every font used is embedded') as string }),
      ]);
    }
  });
});

describe('issue 34 item 2: an e-invoice handed to the archival stage', () => {
  const xml = Buffer.from('<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>');
  const eInvoice = { profile: 'en16931' as const, xml, fileName: 'factur-x.xml' as const, conformanceLevel: 'EN 16931' as const, relationship: 'Alternative' as const };
  const archival = (pdfA: 'PDF/A-3b' | 'PDF/A-2b' | null) => ({ pdfA, pdfUA: null, author: null, subject: null, keywords: null, creator: null, language: 'de', attachments: [] });

  it('is embedded as factur-x.xml, listed in /AF with its relationship, and declared in the XMP', async () => {
    const outcome = await archiveDocument(await pdfWith({}), { title: 'T', archival: archival('PDF/A-3b') }, 'docrender', new Date(), eInvoice);
    expect(outcome.pdf).not.toBeNull();
    const document = await PDFDocument.load(outcome.pdf ?? Buffer.alloc(0));
    const text = Buffer.from(await document.save({ useObjectStreams: false })).toString('latin1');
    expect(text).toContain('/F (factur-x.xml)');
    expect(text).toContain('/Subtype /text#2Fxml');
    expect(text).toContain('/AFRelationship /Alternative');
    expect(text).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    expect(document.catalog.has(PDFName.of('AF'))).toBe(true);
  });

  it.each(['PDF/A-2b', null] as const)('a document asking for %s gets an issue saying an e-invoice needs PDF/A-3, and no PDF', async (pdfA) => {
    const outcome = await archiveDocument(await pdfWith({}), { title: 'T', archival: archival(pdfA) }, 'docrender', new Date(), eInvoice);
    expect(outcome.pdf).toBeNull();
    if (outcome.pdf === null) expect(outcome.issues).toEqual([expect.objectContaining({ type: 'SchemaInvalid', description: expect.stringContaining('PDF/A-3b or PDF/A-3u') as string })]);
  });
});
