import { PDFDocument, PDFName, PDFNumber, PDFRef, PDFString, StandardFonts } from '@cantoo/pdf-lib';
import { archiveDocument } from './archival-stage';
import { makeAccessible, PDF_UA_1_IDENTIFICATION } from './pdf-ua';
import { checkPdfUA } from './pdf-ua-checks';
import { xmpPacket } from './xmp-metadata';

const INFO = { title: 'T', author: null, subject: null, keywords: null, creator: 'c', producer: 'p', language: 'en', created: new Date(Date.UTC(2026, 10, 29)) };

/**
 * A tagged one-page PDF made by hand, with the faults a tagged print can have: a fill outside marked content, a
 * PDF 2.0 type (Strong) without a role, a figure without alternative text, a first heading H2, a TH without scope,
 * a font that is not embedded, no /DisplayDocTitle.
 */
async function taggedPdf(): Promise<PDFDocument> {
  const document = await PDFDocument.create();
  const page = document.addPage([200, 200]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  const context = document.context;
  const content = '/H2 <</MCID 0>> BDC BT /F1 12 Tf 10 10 Td (Hi) Tj ET EMC /Figure <</MCID 1>> BDC 0 0 5 5 re f EMC 1 1 1 1 re f';
  page.node.set(PDFName.of('Resources'), context.obj({ Font: { F1: font.ref } }));
  page.node.set(PDFName.of('Contents'), context.register(context.flateStream(content)));
  const element = (type: string, kids: number | PDFRef[], extra: Record<string, unknown> = {}) =>
    context.register(context.obj({ Type: 'StructElem', S: type, Pg: page.ref, K: typeof kids === 'number' ? PDFNumber.of(kids) : kids, ...extra }));
  const heading = element('H2', 0);
  const figure = element('Figure', 1);
  const cell = element('TH', []);
  const strong = element('Strong', []);
  const table = element('Table', [context.register(context.obj({ Type: 'StructElem', S: 'TR', K: [cell] }))]);
  const root = context.register(context.obj({ Type: 'StructTreeRoot', K: [context.register(context.obj({ Type: 'StructElem', S: 'Document', K: [heading, figure, table, strong] }))] }));
  document.catalog.set(PDFName.of('StructTreeRoot'), root);
  document.catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
  document.catalog.set(PDFName.of('Lang'), PDFString.of('en'));
  await document.flush(); // writes the font dictionary
  return document;
}

const rules = (failures: { rule: string }[]) => [...new Set(failures.map((f) => f.rule))].sort();

describe('issue 34 item 4: the service\'s own PDF/UA-1 checks (ISO 14289-1), without Java', () => {
  it('name each rule a tagged print breaks; makeAccessible mends what the stage can (artifacts, roles, title shown)', async () => {
    const document = await taggedPdf();
    const xmp = xmpPacket({ info: INFO, pdfA: null, extensions: [PDF_UA_1_IDENTIFICATION] }).toString('utf8');
    expect(rules(checkPdfUA(document, xmp))).toEqual(['UA 7.1 content', 'UA 7.1 title', 'UA 7.1 types', 'UA 7.21', 'UA 7.3', 'UA 7.4', 'UA 7.5']);
    expect(checkPdfUA(document, xmp)).toEqual(expect.arrayContaining([{ rule: 'UA 7.4', message: 'the first heading is H2, not H1' }]));

    makeAccessible(document);
    expect(rules(checkPdfUA(document, xmp))).toEqual(['UA 7.21', 'UA 7.3', 'UA 7.4', 'UA 7.5']);
  });

  it('UA 5: the XMP must declare pdfuaid:part 1', async () => {
    const document = await taggedPdf();
    const withoutPart = xmpPacket({ info: INFO, pdfA: null, extensions: [] }).toString('utf8');
    expect(rules(checkPdfUA(document, withoutPart))).toContain('UA 5');
    expect(rules(checkPdfUA(document, null))).toEqual(expect.arrayContaining(['UA 5', 'UA 7.1 title']));
  });

  it('an output that fails them is not delivered: the stage answers one issue per failed rule, naming it', async () => {
    const untagged = await PDFDocument.create();
    untagged.addPage([100, 100]).drawRectangle({ x: 0, y: 0, width: 10, height: 10 });
    const printed = Buffer.from(await untagged.save());
    const archival = { pdfA: null, pdfUA: 'PDF/UA-1' as const, author: null, subject: null, keywords: null, creator: null, language: 'en', attachments: [] };
    const outcome = await archiveDocument(printed, { title: 'T', archival }, 'docrender', new Date());
    expect(outcome.pdf).toBeNull();
    if (outcome.pdf !== null) return;
    expect(outcome.issues).toEqual([
      expect.objectContaining({
        type: 'SchemaInvalid',
        severity: 'Error',
        description: expect.stringMatching(/^Not rendered: the PDF\/UA-1 output fails rule UA 7\.1 tagged \(the catalog has \/MarkInfo/) as string,
      }),
    ]);
  });
});
