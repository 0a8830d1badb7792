import { PDFDocument } from '@cantoo/pdf-lib';
import { compileDocument, Template } from '@docrender/template-dsl';
import { outlineEntries, pagePngs, pdfInfo, pdfText, qpdfCheck } from '../../test/pdf-tools';
import { printCompiled, printPoolForTests } from '../../test/print-pool';
import { readExample } from '../../test/render-service.harness';
import type { BrowserPool } from './browser-pool';
import { HEADING_MARKER_HOST } from './document-outline';
import { markerLinks } from './marker-links';

/** The heading markers left in a PDF's link annotations (none once the outline is written). */
async function headingMarkers(pdf: Buffer): Promise<unknown[]> {
  return markerLinks(await PDFDocument.load(pdf, { updateMetadata: false }), HEADING_MARKER_HOST);
}

describe('issue 32 item 4: the outline of an untagged document is the service\'s own, as Chromium would write it', () => {
  let pool: BrowserPool;

  printPoolForTests('document-outline-test', (started) => (pool = started));

  it.each(['catalogue', 'report'])(
    'examples/%s with an outline: the same entries (titles, nesting, pages) as Chromium\'s outline of the tagged print, the same pages pixel for pixel, untagged, no heading marker left',
    async (example) => {
      const { template, data } = readExample(example);
      const compiled = compileDocument({ template: { ...(template as Template), outline: true }, data });
      expect(compiled.outline).toBe(true);
      const own = await printCompiled(pool, compiled, { budgetMs: 300_000 });
      // Chromium writes an outline only with a structure tree: the same document printed tagged has Chromium's
      const chromiums = await printCompiled(pool, { ...compiled, tagged: true }, { budgetMs: 300_000 });

      const entries = await outlineEntries(own);
      expect(entries.length).toBeGreaterThan(2);
      expect(entries).toEqual(await outlineEntries(chromiums));
      expect(entries.every((entry) => entry.page !== null)).toBe(true);
      expect((await pdfInfo(own)).Tagged).toBe('no');
      expect((await pdfInfo(chromiums)).Tagged).toBe('yes');
      expect(await pdfText(own)).toBe(await pdfText(chromiums));
      const [ownPages, chromiumPages] = await Promise.all([pagePngs(own, 40), pagePngs(chromiums, 40)]);
      expect(ownPages.length).toBe(chromiumPages.length);
      ownPages.forEach((png, i) => expect({ page: i + 1, same: png.equals(chromiumPages[i]) }).toEqual({ page: i + 1, same: true }));
      expect(await headingMarkers(own)).toEqual([]);
      await expect(qpdfCheck(own)).resolves.toMatch(/No syntax or stream encoding errors found/);
    },
    300_000,
  );

  it('a document with an outline and no heading has no outline and no marker', async () => {
    const compiled = compileDocument({ template: { dsl: 1, outline: true, body: [{ type: 'text', id: 'plain', text: 'No heading here' }] } as Template, data: {} });
    const pdf = await printCompiled(pool, compiled);
    expect(await outlineEntries(pdf)).toEqual([]);
    expect(await headingMarkers(pdf)).toEqual([]);
    expect(await pdfText(pdf)).toContain('No heading here');
  });
});
