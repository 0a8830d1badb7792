import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Environment, MessageName } from '@docrender/contracts';
import { einvoiceOracleDir } from '@docrender/e-invoice/testing';
import { organisationAssetKey } from '@docrender/organisation-resources';
import { compileDocument, type Template } from '@docrender/template-dsl';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFStream } from '@cantoo/pdf-lib';
import { outlineEntries, pdfInfo, qpdfCheck } from '../../test/pdf-tools';
import { printCompiled, printPoolForTests } from '../../test/print-pool';
import { readExample, renderCommand, useRenderService } from '../../test/render-service.harness';
import type { BrowserPool } from '../chromium/browser-pool';
import { makeArchivalPdf } from './archival-pdf';
import { srgbOutputIntent } from './archival-stage';
import { FACTUR_X_NAMESPACE, facturXAttachment } from './factur-x-attachment';

const run = promisify(execFile);

/** The outside validators (shared/einvoice beside the repository, found as the e-invoice tests find them). */
const ORACLES = einvoiceOracleDir();

/** PDFBox Preflight through bin/pdfa-preflight: its exit code (0 = no counted error) and its report. */
async function preflight(pdf: Buffer, part: 2 | 3): Promise<{ code: number; report: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docrender-pdfa-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, pdf);
    try {
      const { stdout } = await run(path.join(ORACLES, 'bin/pdfa-preflight'), ['--part', String(part), file], { maxBuffer: 16 * 1024 * 1024 });
      return { code: 0, report: stdout };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, report: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A poppler or qpdf tool's output on the PDF. */
async function tool(command: string, args: string[], pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docrender-pdfa-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, pdf);
    return (await run(command, [...args, file])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Each embedded file: name, AFRelationship, MIME type, and whether the catalog's /AF lists its file specification. */
async function associatedFiles(pdf: Buffer): Promise<{ name: string; relationship: string | undefined; mimeType: string | undefined; inAF: boolean }[]> {
  const document = await PDFDocument.load(pdf);
  const catalog = document.catalog;
  const af = (catalog.lookupMaybe(PDFName.of('AF'), PDFArray)?.asArray() ?? []).map((ref) => ref.toString());
  const names = catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict)?.lookupMaybe(PDFName.of('Names'), PDFArray)?.asArray() ?? [];
  const files = [];
  for (let i = 0; i < names.length; i += 2) {
    const spec = document.context.lookup(names[i + 1], PDFDict);
    const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F'), PDFStream);
    files.push({
      name: spec.lookup(PDFName.of('UF'), PDFHexString).decodeText(),
      relationship: spec.lookupMaybe(PDFName.of('AFRelationship'), PDFName)?.decodeText(),
      mimeType: stream.dict.lookupMaybe(PDFName.of('Subtype'), PDFName)?.decodeText(),
      inAF: af.includes(names[i + 1].toString()),
    });
  }
  return files;
}

/** The XMP metadata stream's text (uncompressed, as the service writes it). */
async function xmpOf(pdf: Buffer): Promise<string> {
  const document = await PDFDocument.load(pdf);
  const stream = document.catalog.lookup(PDFName.of('Metadata'));
  if (!(stream instanceof PDFRawStream)) throw new Error('no XMP metadata stream');
  expect(stream.dict.has(PDFName.of('Filter'))).toBe(false);
  return Buffer.from(stream.contents).toString('utf8');
}

const TERMS = Buffer.from('Payment within 30 days. Thank you for your business.\n', 'utf8');

/** The invoice example as an archival PDF: a PDF/A level, metadata with bindings, and (PDF/A-3) a file from the data. */
function archivalInvoice(pdfA: 'PDF/A-2b' | 'PDF/A-3b' | 'PDF/A-3u', tagged: boolean): { template: Template; data: Record<string, unknown> } {
  const { template, data } = readExample('invoice');
  return {
    template: {
      ...(template as Template),
      tagged,
      pdfA,
      metadata: { author: '{{ seller.name }}', subject: 'Invoice {{ number }}', keywords: 'invoice, {{ number }}' },
      ...(pdfA.startsWith('PDF/A-3')
        ? { attachments: [{ id: 'terms-file', name: 'terms-{{ number }}.txt', mimeType: 'text/plain', description: 'Terms of payment', relationship: 'Supplement' as const, content: '{{ files.terms }}' }] }
        : {}),
    },
    data: { ...(data as Record<string, unknown>), files: { terms: TERMS.toString('base64') } },
  };
}

describe('issue 34: archival PDF output of the render service, judged by PDFBox Preflight', () => {
  const service = useRenderService('archival');

  // production: a test render's watermark is drawn with constant alpha (ExtGState /ca), which PDF/A-2 and -3 allow
  // but Preflight, a PDF/A-1 validator whose wrapper does not lift that rule (4.1.2), would count
  const render = (template: Template, data: unknown) => service.renderCleanly(template, data);

  it('issue 32 item 4: examples/catalogue as PDF/A-3b, its outline written by the service into the untagged print (decision 0051), passes Preflight and keeps its bookmarks', async () => {
    const { template, data } = readExample('catalogue');
    const { result, pdf } = await render({ ...(template as Template), pdfA: 'PDF/A-3b' }, data);
    expect(result.pdf?.conformance).toMatchObject({ pdfA: 'PDF/A-3b', checks: 'passed' });
    const { code, report } = await preflight(pdf, 3);
    expect(report).toMatch(/0 error\(s\)/);
    expect(code).toBe(0);
    expect((await pdfInfo(pdf)).Tagged).toBe('no');
    const entries = await outlineEntries(pdf);
    expect(entries.map((entry) => entry.title)).toEqual(expect.arrayContaining(['Contents', '7. Price list', '8. Terms of sale']));
    expect(entries.every((entry) => entry.page !== null)).toBe(true);
  });

  it.each([
    ['PDF/A-3b', false],
    ['PDF/A-3b', true],
    ['PDF/A-3u', false],
  ] as const)('issue 34 items 1, 2, 5: the invoice as %s (tagged %s) passes Preflight, carries its attachment in /AF and reports its conformance', async (level, tagged) => {
    const { template, data } = archivalInvoice(level, tagged);
    const { result, pdf } = await render(template, data);

    const { code, report } = await preflight(pdf, 3);
    expect(report).toMatch(/0 error\(s\)/);
    expect(code).toBe(0);
    // PDF/A-3 builds on PDF 1.7; Chromium's print declares 1.4
    expect(pdf.subarray(0, 9).toString('latin1')).toBe('%PDF-1.7\n');
    expect(report).toMatch(new RegExp(`pdfaid:part>3 pdfaid:conformance>${level.endsWith('u') ? 'U' : 'B'}`));
    expect(result.pdf?.conformance).toMatchObject({ pdfA: level, checks: 'passed' });
    expect(result.pdf?.conformance?.rules).toEqual(expect.arrayContaining(['6.2.3', '6.6.3', '6.8']));

    // what Preflight does not check: the associated file (ISO 19005-3 6.8)
    expect(await tool('pdfdetach', ['-list'], pdf)).toMatch(/1 embedded files\n1: terms-INV-2026-00042\.txt/);
    expect(await tool('qpdf', ['--show-attachment=terms-INV-2026-00042.txt'], pdf)).toBe(TERMS.toString('utf8'));
    expect(await associatedFiles(pdf)).toEqual([{ name: 'terms-INV-2026-00042.txt', relationship: 'Supplement', mimeType: 'text/plain', inAF: true }]);

    // metadata from the template's bindings, the same in Info and XMP
    const info = await pdfInfo(pdf);
    expect(info).toMatchObject({ Title: 'Invoice INV-2026-00042', Author: 'ACME Software GmbH', Subject: 'Invoice INV-2026-00042', Keywords: 'invoice, INV-2026-00042' });
    expect(info.Tagged).toBe(tagged ? 'yes' : 'no');
    // the tagged option keeps its structure tree under PDF/A
    expect((await PDFDocument.load(pdf)).catalog.has(PDFName.of('StructTreeRoot'))).toBe(tagged);
    const xmp = await xmpOf(pdf);
    expect(xmp).toContain('<rdf:li>ACME Software GmbH</rdf:li>');
    expect(xmp).toContain('<dc:language><rdf:Bag><rdf:li>en-GB</rdf:li></rdf:Bag></dc:language>');
    await expect(qpdfCheck(pdf)).resolves.toMatch(/No syntax or stream encoding errors found/);
  });

  it('issue 34 item 1: the invoice as PDF/A-2b passes Preflight for part 2 and declares part 2, conformance B', async () => {
    const { template, data } = archivalInvoice('PDF/A-2b', false);
    const { result, pdf } = await render(template, data);
    const { code, report } = await preflight(pdf, 2);
    expect(report).toMatch(/0 error\(s\)/);
    expect(code).toBe(0);
    expect(report).toMatch(/pdfaid:part>2 pdfaid:conformance>B/);
    expect(result.pdf?.conformance).toMatchObject({ pdfA: 'PDF/A-2b', checks: 'passed' });
    expect(await tool('pdfdetach', ['-list'], pdf)).toMatch(/^0 embedded files/);
  });

  it('issue 34 item 5: a plain PDF reports that it asked for nothing', async () => {
    const { template, data } = readExample('invoice');
    const { result } = await render(template as Template, data);
    expect(result.pdf?.conformance).toEqual({ pdfA: null, pdfUA: null, checks: 'none', rules: [], eInvoice: null });
  });

  it('issue 34 item 2: an attachment from the organisation\'s assets is embedded byte for byte and associated', async () => {
    const { template, data } = archivalInvoice('PDF/A-3b', false);
    const command = renderCommand({
      template: { ...template, attachments: [{ id: 'terms-asset', name: 'terms.txt', mimeType: 'text/plain', relationship: 'Supplement', asset: 'legal/{{ termsAsset }}' }] },
      data: { inline: { ...data, termsAsset: 'terms-2026.txt' } },
      environment: Environment.Production,
    });
    await service.blobStore.put(organisationAssetKey(command.organisationId, 'legal/terms-2026.txt'), TERMS, 'text/plain');
    const result = await service.bus.request(MessageName.RenderDocument, command, { timeoutMs: 90_000 });
    expect(result.issues).toEqual([]);
    const pdf = await service.blobStore.get(result.pdf?.blobKey ?? '');
    expect(await tool('qpdf', ['--show-attachment=terms.txt'], pdf)).toBe(TERMS.toString('utf8'));
    expect(await associatedFiles(pdf)).toEqual([{ name: 'terms.txt', relationship: 'Supplement', mimeType: 'text/plain', inAF: true }]);
    expect(result.pdf?.conformance).toMatchObject({ pdfA: 'PDF/A-3b', checks: 'passed' });
  });

  it('issue 34 item 2: an attachment whose content is not Base64 blocks the document with an issue naming it', async () => {
    const { template, data } = archivalInvoice('PDF/A-3b', false);
    const result = await service.bus.request(
      MessageName.RenderDocument,
      renderCommand({ template, data: { inline: { ...data, files: { terms: 'not base64!' } } } }),
      { timeoutMs: 90_000 },
    );
    expect(result.outcome).toBe('blocked');
    expect(result.pdf).toBeNull();
    expect(result.issues).toEqual([expect.objectContaining({ type: 'SchemaInvalid', elementId: 'terms-file', description: expect.stringContaining('not Base64') as string })]);
  });
});

describe('issue 34 item 2: an e-invoice XML embedded with facturXAttachment', () => {
  let pool: BrowserPool;

  printPoolForTests('docrender render-service (archival test)', (started) => (pool = started));

  it('factur-x.xml as Alternative with the Factur-X XMP extension schema: Preflight passes, /AF lists it, the XML comes back byte for byte', async () => {
    const { template, data } = readExample('invoice');
    const compiled = compileDocument({ template: template as Template, data });
    const printed = await printCompiled(pool, compiled);
    const xml = await readFile(path.join(ORACLES, 'reference/factur-x-en16931.xml'));
    const invoice = facturXAttachment({ profile: 'en16931', xml, fileName: 'factur-x.xml', conformanceLevel: 'EN 16931', relationship: 'Alternative' });
    const outcome = await makeArchivalPdf(printed, {
      level: 'PDF/A-3b',
      pdfUA: null,
      info: { title: compiled.title, author: null, subject: null, keywords: null, creator: 'test', producer: 'test', language: 'en-GB', created: new Date() },
      attachments: [invoice.attachment],
      xmpExtensions: [invoice.xmpExtension],
      outputIntent: srgbOutputIntent(),
    });
    if (!outcome.conformant) throw new Error(JSON.stringify(outcome.failures));
    const pdf = outcome.pdf;

    const { code, report } = await preflight(pdf, 3);
    expect(report).toMatch(/0 error\(s\)/);
    expect(code).toBe(0);
    expect(await associatedFiles(pdf)).toEqual([{ name: 'factur-x.xml', relationship: 'Alternative', mimeType: 'text/xml', inAF: true }]);
    expect(Buffer.from(await tool('qpdf', ['--show-attachment=factur-x.xml'], pdf), 'utf8').equals(xml)).toBe(true);
    const xmp = await xmpOf(pdf);
    expect(xmp).toContain(`<pdfaSchema:namespaceURI>${FACTUR_X_NAMESPACE}</pdfaSchema:namespaceURI>`);
    expect(xmp).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>');
    for (const value of ['<fx:DocumentType>INVOICE</fx:DocumentType>', '<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>', '<fx:Version>1.0</fx:Version>', '<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>']) {
      expect(xmp).toContain(value);
    }
  });
});
