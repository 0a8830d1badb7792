import { MessageName } from '@docrender/contracts';
import { compileDocument, Template } from '@docrender/template-dsl';
import { pdfInfo, pdfText, qpdfCheck } from '../../test/pdf-tools';
import { printCompiled, startPrintPool } from '../../test/print-pool';
import { readExample, renderCommand, useRenderService } from '../../test/render-service.harness';
import type { BrowserPool } from '../chromium/browser-pool';
import { withPdfMetadata } from './pdf-metadata';
import { readPdfPageCount } from './pdf-page-count';
import { readClassicTrailer } from './pdf-xref';

const PRODUCER = 'docrender render-service (metadata test)';

/** The example's template, tagged or not. */
function exampleTemplate(name: string, tagged: boolean): { template: Template; data: unknown } {
  const { template, data } = readExample(name);
  return { template: { ...(template as Template), tagged }, data };
}

describe('issue 4: PDF metadata (title = document name, producer, creation date) on real Chromium output', () => {
  let pool: BrowserPool;

  /** What Chromium prints for the example, as the render service would print it before the metadata update. */
  async function chromiumPdf(name: string, tagged: boolean): Promise<{ pdf: Buffer; title: string }> {
    const { template, data } = exampleTemplate(name, tagged);
    const compiled = compileDocument({ template, data });
    const pdf = await printCompiled(pool, compiled);
    return { pdf, title: compiled.title };
  }

  beforeAll(async () => {
    pool = await startPrintPool(PRODUCER);
  });

  afterAll(async () => {
    await pool?.close();
  });

  it('Chromium 156 writes the layout the update relies on: one classic xref table, no /ID, no XMP stream', async () => {
    for (const tagged of [false, true]) {
      const { pdf } = await chromiumPdf('invoice', tagged);
      expect(readClassicTrailer(pdf)).toMatchObject({ prev: null, id: null, encrypted: false });
      expect(pdf.includes('/Metadata', 0, 'latin1')).toBe(false);
    }
  });

  it.each([
    ['invoice', false],
    ['invoice', true],
    ['report', false],
    ['report', true],
  ])('%s (tagged %s): pdfinfo shows the new Title, Producer and CreationDate; qpdf accepts the file; pages and text unchanged', async (name, tagged) => {
    const { pdf: printed, title } = await chromiumPdf(name, tagged);
    const created = new Date(Date.UTC(2026, 0, 31, 23, 59, 58));
    const title2 = `${title} — Übersicht (1/2) \\ 株式会社`;
    const outcome = withPdfMetadata(printed, { title: title2, producer: PRODUCER, creator: PRODUCER, created });
    expect(outcome.written).toBe(true);
    const pdf = outcome.pdf;

    const info = await pdfInfo(pdf, { isoDates: true });
    expect(info).toMatchObject({ Title: title2, Producer: PRODUCER, Creator: PRODUCER, CreationDate: '2026-01-31T23:59:58Z', ModDate: '2026-01-31T23:59:58Z' });
    expect(info.Tagged).toBe(tagged ? 'yes' : 'no');
    await expect(qpdfCheck(pdf)).resolves.toMatch(/No syntax or stream encoding errors found/);

    const before = await pdfInfo(printed);
    expect(info.Pages).toBe(before.Pages);
    await expect(readPdfPageCount(pdf)).resolves.toBe(Number(before.Pages));
    expect(await pdfText(pdf)).toBe(await pdfText(printed));
  });

  describe('through the render service', () => {
    const service = useRenderService('metadata');

    it.each([false, true])('a rendered invoice (tagged %s) carries title = document name, the service as producer and its creation date', async (tagged) => {
      // without the DSL's own `title` (docs/template-dsl.md), the PDF title is the document name
      const { template: titled, data } = exampleTemplate('invoice', tagged);
      const { title: _title, ...template } = titled;
      const started = Math.floor(Date.now() / 1000) * 1000;
      const result = await service.bus.request(MessageName.RenderDocument, renderCommand({ template, data: { inline: data }, documentNameTemplate: 'Rechnung {{ number }}' }), {
        timeoutMs: 90_000,
      });
      expect(result.outcome).toBe('rendered');
      const pdf = await service.blobStore.get(result.pdf?.blobKey ?? '');
      const info = await pdfInfo(pdf, { isoDates: true });
      expect(info.Title).toBe(result.documentName);
      expect(info.Title).toBe('Rechnung INV-2026-00042');
      expect(info.Producer).toMatch(/^docrender render-service \S+$/);
      expect(info.Creator).toBe(info.Producer);
      const creation = Date.parse(info.CreationDate);
      expect(creation).toBeGreaterThanOrEqual(started);
      expect(creation).toBeLessThanOrEqual(Date.now());
      expect(Number(info.Pages)).toBe(result.pdf?.pageCount);
      expect(info.Tagged).toBe(tagged ? 'yes' : 'no');
      await expect(qpdfCheck(pdf)).resolves.toMatch(/No syntax or stream encoding errors found/);
    });
  });
});
