import type { Template, TemplateElement } from '@docrender/template-dsl';
import { decodePDFRawStream, PDFArray, PDFBool, PDFDict, PDFDocument, PDFHexString, PDFName, PDFObject, PDFRawStream, PDFRef, PDFString } from '@cantoo/pdf-lib';
import { pdfaPreflight, pdfInfo, pdfText, qpdfCheck } from '../../test/pdf-tools';
import { readExample, useRenderService } from '../../test/render-service.harness';
import { unaccountedPainting } from './content-marking';

/** A small SVG seal (a data URI), for an image with alternative text and a decorative one. */
const SEAL = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#9c7c38"/></svg>').toString('base64')}`;

/**
 * The invoice example asking for PDF/UA-1 (and a PDF/A level), with every kind of figure and a link; without PDF/A
 * with a watermark too (its opacity is an ExtGState /ca, which PDF/A-2/3 allow and Preflight, a PDF/A-1 validator, counts).
 */
function accessibleInvoice(pdfA: 'PDF/A-3b' | null): { template: Template; data: Record<string, unknown> } {
  const { template, data } = readExample('invoice');
  // the example's payment QR code gets its alternative text: PDF/UA refuses a figure without one
  const invoice = JSON.parse(JSON.stringify(template).replace('"id":"payment-qr",', '"id":"payment-qr","alt":"QR code for the payment",')) as Template;
  const figures: TemplateElement[] = [
    { type: 'image', id: 'seal', source: SEAL, alt: 'Seal of {{ seller.name }}', width: '12mm', height: '12mm' },
    { type: 'image', id: 'ornament', source: SEAL, alt: '', width: '6mm', height: '6mm' },
    { type: 'qrCode', id: 'pay-qr', value: 'INV {{ number }}', alt: 'QR code to pay invoice {{ number }}', size: '20mm' },
    { type: 'barcode', id: 'ref-code', format: 'code128', value: '{{ number }}', alt: 'Barcode of {{ number }}', height: '10mm' },
    { type: 'chart', id: 'qty-chart', chartType: 'bar', source: 'items', labelField: 'description', series: [{ field: 'quantity' }], alt: 'Quantities per line', height: '40mm' },
    { type: 'richText', id: 'portal', markdown: 'Pay online at [the portal](https://pay.example.com/{{ number }}).' },
  ];
  return {
    template: {
      ...invoice,
      ...(pdfA === null ? {} : { pdfA }),
      pdfUA: 'PDF/UA-1',
      ...(pdfA === null ? { page: { ...invoice.page, watermark: { text: 'COPY' } } } : {}),
      body: [...invoice.body, ...figures],
    },
    data: data as Record<string, unknown>,
  };
}

type StructureElement = { type: string; alt: string | null; scope: string | null };

/** The structure elements in reading order, with their /Alt and a TH's /Scope, read back with pdf-lib. */
function structureElements(document: PDFDocument): StructureElement[] {
  const out: StructureElement[] = [];
  const text = (o: PDFObject | undefined) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : null);
  const visit = (object: PDFObject | undefined): void => {
    const node = object instanceof PDFRef ? document.context.lookup(object) : object;
    if (node instanceof PDFArray) return node.asArray().forEach(visit);
    if (!(node instanceof PDFDict)) return;
    const type = node.lookupMaybe(PDFName.of('S'), PDFName);
    if (type !== undefined) {
      const attributes = node.lookup(PDFName.of('A'));
      const list = attributes instanceof PDFArray ? attributes.asArray().map((a) => document.context.lookup(a)) : [attributes];
      const scope = list.map((a) => (a instanceof PDFDict ? a.lookupMaybe(PDFName.of('Scope'), PDFName)?.decodeText() : undefined)).find((s) => s !== undefined) ?? null;
      out.push({ type: type.decodeText(), alt: text(node.lookup(PDFName.of('Alt'))), scope });
    }
    visit(node.get(PDFName.of('K')));
  };
  visit(document.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict).get(PDFName.of('K')));
  return out;
}

/** Each page's content: how often it marks artifacts, and the painting that is neither tagged nor an artifact. */
function pageMarking(document: PDFDocument): { artifacts: number; unaccounted: string[]; balanced: boolean }[] {
  return document.getPages().map((page) => {
    const stream = page.node.lookup(PDFName.of('Contents'));
    if (!(stream instanceof PDFRawStream)) throw new Error('one content stream per page expected');
    const content = decodePDFRawStream(stream).decode();
    const { operators, balanced } = unaccountedPainting(content);
    return { artifacts: Buffer.from(content).toString('latin1').split('/Artifact BMC').length - 1, unaccounted: operators, balanced };
  });
}

function xmpOf(document: PDFDocument): string {
  const stream = document.catalog.lookup(PDFName.of('Metadata'));
  if (!(stream instanceof PDFRawStream)) throw new Error('no XMP metadata stream');
  return Buffer.from(stream.contents).toString('utf8');
}

// a print, Preflight (Java) and a second print on a machine shared by many test runs
jest.setTimeout(240_000);

describe('issue 34 item 4: PDF/UA-1 output of the render service, read back', () => {
  const service = useRenderService('pdf-ua');

  // production (no TEST watermark): Preflight, a PDF/A-1 validator, counts the test watermark's constant alpha
  const render = (template: Template, data: unknown) => service.renderCleanly(template, data);

  it('PDF/A-3b + PDF/UA-1: headings, table headers with scope, alt texts of image, QR code, barcode and chart, artifacts, XMP; Preflight passes', async () => {
    const { template, data } = accessibleInvoice('PDF/A-3b');
    const { result, pdf } = await render(template, data);
    expect(result.pdf?.conformance).toMatchObject({ pdfA: 'PDF/A-3b', pdfUA: 'PDF/UA-1', checks: 'passed' });
    expect(result.pdf?.conformance?.rules).toEqual(expect.arrayContaining(['6.2.3', 'UA 5', 'UA 7.1 content', 'UA 7.3', 'UA 7.4', 'UA 7.5', 'UA 7.18', 'UA 7.21']));

    const { code, report } = await pdfaPreflight(pdf, 3);
    expect(report).toMatch(/0 error\(s\)/);
    expect(code).toBe(0);
    await expect(qpdfCheck(pdf)).resolves.toMatch(/No syntax or stream encoding errors found/);

    const document = await PDFDocument.load(pdf);
    const catalog = document.catalog;
    expect(catalog.lookup(PDFName.of('MarkInfo'), PDFDict).lookup(PDFName.of('Marked'))).toBe(PDFBool.True);
    expect(catalog.lookup(PDFName.of('ViewerPreferences'), PDFDict).lookup(PDFName.of('DisplayDocTitle'))).toBe(PDFBool.True);
    expect((catalog.lookup(PDFName.of('Lang')) as PDFString | PDFHexString).decodeText()).toBe('en-GB');

    const elements = structureElements(document);
    const headings = elements.filter((e) => /^H\d$/.test(e.type)).map((e) => e.type);
    expect(headings[0]).toBe('H1');
    const headerCells = elements.filter((e) => e.type === 'TH');
    expect(headerCells.length).toBeGreaterThanOrEqual(4);
    expect(headerCells.every((cell) => cell.scope === 'Column')).toBe(true);
    // every figure speaks; the decorative image ("" alt) is no figure but an artifact
    expect(elements.filter((e) => e.type === 'Figure').map((e) => e.alt)).toEqual([
      'QR code for the payment',
      'Seal of ACME Software GmbH',
      'QR code to pay invoice INV-2026-00042',
      'Barcode of INV-2026-00042',
      'Quantities per line',
    ]);
    expect(elements.some((e) => e.type === 'Link')).toBe(true);
    // PDF 2.0 types Chromium writes are role-mapped to PDF 1.7 ones
    const roleMap = catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict).lookup(PDFName.of('RoleMap'), PDFDict);
    expect(roleMap.lookup(PDFName.of('Strong'))).toBe(PDFName.of('Span'));

    // the bands (page numbers) are printed as artifacts: nothing paints outside tags and artifacts
    const marking = pageMarking(document);
    for (const page of marking) expect(page).toMatchObject({ unaccounted: [], balanced: true });
    expect(marking.every((page) => page.artifacts > 0)).toBe(true);

    // links describe where they go; pages with annotations are read in structure order
    const descriptions: string[] = [];
    for (const page of document.getPages()) {
      const annotations = page.node.Annots()?.asArray().map((a) => document.context.lookup(a, PDFDict)) ?? [];
      for (const link of annotations.filter((a) => a.get(PDFName.of('Subtype')) === PDFName.of('Link'))) {
        descriptions.push((link.lookup(PDFName.of('Contents')) as PDFHexString).decodeText());
        expect(page.node.get(PDFName.of('Tabs'))).toBe(PDFName.of('S'));
      }
    }
    expect(descriptions).toContain('Link to https://pay.example.com/INV-2026-00042');
    expect(descriptions.every((d) => d.startsWith('Link to '))).toBe(true);

    const xmp = xmpOf(document);
    expect(xmp).toContain('<pdfuaid:part>1</pdfuaid:part>');
    expect(xmp).toContain('<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>');
    expect(xmp).toContain('<pdfaProperty:name>part</pdfaProperty:name><pdfaProperty:valueType>Integer</pdfaProperty:valueType>');
    expect(xmp).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(xmp).toMatch(/<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Invoice INV-2026-00042<\/rdf:li>/);
  });

  it('PDF/A-3b + PDF/UA-1 statement with carried subtotals: its tagged print confirms the breaks and loses its marker links (an incremental update); the own checks and Preflight pass', async () => {
    const { template, data } = readExample('statement');
    const { result, pdf } = await render({ ...(template as Template), pdfA: 'PDF/A-3b', pdfUA: 'PDF/UA-1' }, data);
    expect(result.pdf?.conformance).toMatchObject({ pdfA: 'PDF/A-3b', pdfUA: 'PDF/UA-1', checks: 'passed' });
    const { code, report } = await pdfaPreflight(pdf, 3);
    expect(report).toMatch(/0 error\(s\)/);
    expect(code).toBe(0);
    await expect(qpdfCheck(pdf)).resolves.toMatch(/No syntax or stream encoding errors found/);
    const document = await PDFDocument.load(pdf);
    expect(document.getPages().every((page) => page.node.Annots() === undefined)).toBe(true);
    expect(structureElements(document).some((element) => element.type === 'Link')).toBe(false);
    expect(structureElements(document).filter((element) => element.type === 'TR').length).toBeGreaterThan(120);
    for (const page of pageMarking(document)) expect(page).toMatchObject({ unaccounted: [], balanced: true });
    expect(await pdfText(pdf)).toContain('Carried forward');
  });

  it('PDF/UA-1 without PDF/A: tagged, identified, its own rules only; the watermark is printed as an artifact', async () => {
    const { template, data } = accessibleInvoice(null);
    const { result, pdf } = await render(template, data);
    expect(result.pdf?.conformance).toMatchObject({ pdfA: null, pdfUA: 'PDF/UA-1', checks: 'passed', eInvoice: null });
    expect(result.pdf?.conformance?.rules.every((rule) => rule.startsWith('UA ') || rule === '6.6.3' || rule === '6.8')).toBe(true);
    expect((await pdfInfo(pdf)).Tagged).toBe('yes');
    const document = await PDFDocument.load(pdf);
    expect(xmpOf(document)).toContain('<pdfuaid:part>1</pdfuaid:part>');
    expect(xmpOf(document)).not.toContain('pdfaid:part');
    for (const page of pageMarking(document)) expect(page).toMatchObject({ unaccounted: [], balanced: true });
    expect(await pdfText(pdf, { raw: true })).toContain('COPY');
    // the watermark is no structure element: the structure holds as many paragraphs as without it
    const { pdf: plain } = await render({ ...template, page: (readExample('invoice').template as Template).page } as Template, data);
    const paragraphs = (d: PDFDocument) => structureElements(d).filter((e) => e.type === 'P').length;
    expect(paragraphs(document)).toBe(paragraphs(await PDFDocument.load(plain)));
  });
});
