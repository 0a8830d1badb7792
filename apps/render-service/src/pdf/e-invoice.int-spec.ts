import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Environment, IssueSeverity, MessageName, type RenderDocumentResult } from '@docrender/contracts';
import { ciiValidate, einvoiceOracleDir } from '@docrender/e-invoice/testing';
import type { Template } from '@docrender/template-dsl';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { pdfText } from '../../test/pdf-tools';
import { readExample, renderCommand, useRenderService } from '../../test/render-service.harness';

const run = promisify(execFile);

/** Runs a command on the PDF (and the XML) written to a temporary folder; gives its exit code and output. */
async function withFiles<T>(files: Record<string, Buffer | string>, act: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docrender-e-invoice-'));
  try {
    for (const [name, content] of Object.entries(files)) await writeFile(path.join(dir, name), content);
    return await act(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** PDFBox Preflight (shared/einvoice bin/pdfa-preflight, part 3): exit code 0 = no counted error. */
function preflight(pdf: Buffer): Promise<{ code: number; report: string }> {
  return withFiles({ 'document.pdf': pdf }, async (dir) => {
    try {
      const { stdout } = await run(path.join(einvoiceOracleDir(), 'bin/pdfa-preflight'), ['--part', '3', path.join(dir, 'document.pdf')], { maxBuffer: 16 * 1024 * 1024 });
      return { code: 0, report: stdout };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, report: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  });
}

/** The embedded file as a receiver extracts it (qpdf), and poppler's list of embedded files. */
function attachmentOf(pdf: Buffer, fileName: string): Promise<{ xml: string; list: string }> {
  return withFiles({ 'document.pdf': pdf }, async (dir) => {
    const file = path.join(dir, 'document.pdf');
    const xml = (await run('qpdf', [`--show-attachment=${fileName}`, file], { maxBuffer: 16 * 1024 * 1024 })).stdout;
    const list = (await run('pdfdetach', ['-list', file])).stdout;
    return { xml, list };
  });
}

/** The values of the CII XML the page must print: BT-1, BT-2, BT-112 and the VAT breakdown (BG-23). */
function xmlFigures(xml: string): { number: string; issueDate: string; grandTotal: string; vat: { rate: string; basis: string; tax: string }[] } {
  const one = (re: RegExp): string => {
    const m = re.exec(xml);
    if (!m) throw new Error(`not in the XML: ${re.source}`);
    return m[1];
  };
  const header = one(/<ram:ApplicableHeaderTradeSettlement>([\s\S]*)<\/ram:ApplicableHeaderTradeSettlement>/);
  const vat = [...header.matchAll(/<ram:ApplicableTradeTax>([\s\S]*?)<\/ram:ApplicableTradeTax>/g)].map(([, tax]) => ({
    rate: /<ram:RateApplicablePercent>([^<]+)</.exec(tax)?.[1] ?? '',
    basis: /<ram:BasisAmount>([^<]+)</.exec(tax)?.[1] ?? '',
    tax: /<ram:CalculatedAmount[^>]*>([^<]+)</.exec(tax)?.[1] ?? '',
  }));
  return {
    number: one(/<rsm:ExchangedDocument>\s*<ram:ID>([^<]+)</),
    issueDate: one(/<ram:IssueDateTime>\s*<udt:DateTimeString format="102">(\d{8})</),
    grandTotal: one(/<ram:GrandTotalAmount>([^<]+)</),
    vat,
  };
}

/**
 * What Preflight does not check (ISO 19005-3 6.8, Factur-X 1.09 §6): the embedded file's AFRelationship and its place in
 * the catalog's /AF, and the XMP metadata (uncompressed, as the service writes it) with the Factur-X extension schema.
 */
async function associatedFileAndXmp(pdf: Buffer): Promise<{ relationship: string | undefined; inAF: boolean; xmp: string }> {
  const document = await PDFDocument.load(pdf);
  const catalog = document.catalog;
  const af = (catalog.lookupMaybe(PDFName.of('AF'), PDFArray)?.asArray() ?? []).map((ref) => ref.toString());
  const names = catalog.lookup(PDFName.of('Names'), PDFDict).lookup(PDFName.of('EmbeddedFiles'), PDFDict).lookup(PDFName.of('Names'), PDFArray).asArray();
  const spec = document.context.lookup(names[1], PDFDict);
  const metadata = catalog.lookup(PDFName.of('Metadata'));
  if (!(metadata instanceof PDFRawStream) || metadata.dict.has(PDFName.of('Filter'))) throw new Error('no uncompressed XMP metadata stream');
  return {
    relationship: spec.lookupMaybe(PDFName.of('AFRelationship'), PDFName)?.decodeText(),
    inAF: af.includes(names[1].toString()),
    xmp: Buffer.from(metadata.contents).toString('utf8'),
  };
}

/** An XML amount ("4448.66") as the de-DE page prints it ("4.448,66 €"), and a 102 date as dd.mm.yyyy. */
const euro = (amount: string): string => new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(Number(amount)).replace(/\s/g, ' ');
const germanDate = (yyyymmdd: string): string => `${yyyymmdd.slice(6, 8)}.${yyyymmdd.slice(4, 6)}.${yyyymmdd.slice(0, 4)}`;
const rate = (percent: string): string => String(Number(percent));

/** The page text with pdftotext's runs of spaces (and no-break spaces) as one space, line by line. */
async function pageLines(pdf: Buffer): Promise<string[]> {
  return (await pdfText(pdf)).split('\n').map((line) => line.replace(/[\s\u00a0\u202f]+/g, ' ').trim());
}

const EXAMPLES = [
  { name: 'e-invoice', profile: 'en16931', fileName: 'factur-x.xml', relationship: 'Alternative', level: 'EN 16931' },
  { name: 'e-invoice-xrechnung', profile: 'xrechnung', fileName: 'xrechnung.xml', relationship: 'Data', level: 'XRECHNUNG' },
] as const;

describe('issue 34 items 3 and 6: the e-invoice examples through the render service, judged by the outside validators', () => {
  const service = useRenderService('e-invoice');

  function render(template: unknown, data: unknown): Promise<RenderDocumentResult> {
    // production: the watermark of a test render would be drawn with constant alpha, which Preflight (PDF/A-1) counts
    return service.bus.request(MessageName.RenderDocument, renderCommand({ template: template as Template, data: { inline: data }, environment: Environment.Production }), {
      timeoutMs: 120_000,
    });
  }

  async function rendered(template: unknown, data: unknown): Promise<{ result: RenderDocumentResult; pdf: Buffer }> {
    const result = await render(template, data);
    expect(result.issues).toEqual([]);
    expect(result.outcome).toBe('rendered');
    return { result, pdf: await service.blobStore.get(result.pdf?.blobKey ?? '') };
  }

  it.each(EXAMPLES)(
    'issue 34 items 3, 6: examples/$name is a PDF/A-3b passing Preflight with its $fileName passing cii-validate $profile, and the page prints the XML\'s number, date, VAT per rate and total',
    async ({ name, profile, fileName, relationship, level }) => {
      const { template, data } = readExample(name);
      const { result, pdf } = await rendered(template, data);
      expect(result.pdf?.conformance).toMatchObject({ pdfA: 'PDF/A-3b', checks: 'passed', eInvoice: profile });

      const { xml, list } = await attachmentOf(pdf, fileName);
      expect(list).toMatch(new RegExp(`^1 embedded files\\n1: ${fileName.replace('.', '\\.')}`));
      const validation = await withFiles({ [fileName]: xml }, (dir) => ciiValidate(profile, path.join(dir, fileName)));
      expect(validation.output).toMatch(/is valid/);
      expect(validation.exitCode).toBe(0);

      const embedded = await associatedFileAndXmp(pdf);
      expect(embedded).toMatchObject({ relationship, inAF: true });
      for (const value of ['<fx:DocumentType>INVOICE</fx:DocumentType>', `<fx:DocumentFileName>${fileName}</fx:DocumentFileName>`, `<fx:ConformanceLevel>${level}</fx:ConformanceLevel>`]) {
        expect(embedded.xmp).toContain(value);
      }

      const { code, report } = await preflight(pdf);
      expect(report).toMatch(/0 error\(s\)/);
      expect(code).toBe(0);
      expect(report).toMatch(/pdfaid:part>3 pdfaid:conformance>B/);

      const figures = xmlFigures(xml);
      const lines = await pageLines(pdf);
      const page = lines.join('\n');
      expect(page).toContain(`Rechnungsnummer ${figures.number}`);
      expect(page).toContain(`Rechnungsdatum ${germanDate(figures.issueDate)}`);
      expect(page).toMatch(new RegExp(`Gesamtbetrag ${euro(figures.grandTotal)}`));
      expect(figures.vat).toHaveLength(3);
      for (const vat of figures.vat) {
        // the VAT breakdown row of that rate: "USt 19 % steuerpflichtig 2.042,50 € 388,08 €"
        const row = lines.find((line) => line.startsWith(`USt ${rate(vat.rate)} % `));
        expect(row).toContain(`${euro(vat.basis)} ${euro(vat.tax)}`);
      }
    },
  );

  it('issue 34 item 3: one more hour of Montage changes the printed total and the XML\'s GrandTotalAmount alike, and the render still passes its checks', async () => {
    const { template, data } = readExample('e-invoice');
    const original = data as { items: { quantity: number }[] };
    const changed = { ...original, items: original.items.map((item, i) => (i === 1 ? { ...item, quantity: item.quantity + 1 } : item)) };
    const { result, pdf } = await rendered(template, changed);
    expect(result.pdf?.conformance).toMatchObject({ pdfA: 'PDF/A-3b', checks: 'passed', eInvoice: 'en16931' });
    // by hand: 7 × 75.00 = 525.00; 19 % goods 2,225.00, 5 % allowance 111.25, 19 % basis 2,113.75, VAT 401.61;
    // lines 4,234.70 − 111.25 = 4,123.45 net; VAT 401.61 + 8.38 = 409.99; total 4,533.44 (was 4,448.66)
    const { xml } = await attachmentOf(pdf, 'factur-x.xml');
    expect(xmlFigures(xml).grandTotal).toBe('4533.44');
    expect((await pageLines(pdf)).join('\n')).toContain('Gesamtbetrag 4.533,44 €');
  });

  it('issue 34 item 3: data whose gross disagrees with its lines is blocked with an Error naming BR-CO-15, and no PDF is made', async () => {
    // an application that sends its own gross, printed and mapped as sent: 4,448.00 where the lines give 4,448.66
    const { template, data } = readExample('e-invoice');
    const sent = structuredClone(template) as { eInvoice: { invoice: { totals: Record<string, string> } } };
    sent.eInvoice.invoice.totals.grandTotal = '{{ gross }}';
    sent.eInvoice.invoice.totals.duePayable = '{{ gross }}';
    const result = await render(sent, { ...(data as object), gross: 4448 });
    expect(result.outcome).toBe('blocked');
    expect(result.pdf).toBeNull();
    expect(result.issues).toEqual([
      expect.objectContaining({
        type: 'SchemaInvalid',
        severity: IssueSeverity.Error,
        description: expect.stringMatching(/rule BR-CO-15 at eInvoice\.invoice\.totals\.grandTotal \("\{\{ gross \}\}"\)/) as string,
      }),
    ]);
  });
});
