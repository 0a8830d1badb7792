import { Environment, MessageName } from '@docrender/contracts';
import { firstPagePng } from '../../test/pdf-tools';
import { decodePng, inkIn, Pixels, sameRows } from '../../test/png-pixels';
import { readExample, renderCommand, useRenderService } from '../../test/render-service.harness';

const ORG = '00000000-0000-4000-8000-0000000000ab';
const PX_PER_MM = 96 / 25.4;

type Template = { page: { margins: Record<'top' | 'bottom', string> & Record<string, string>; header?: unknown; footer?: unknown } & Record<string, unknown> } & Record<string, unknown>;

function marginPx(template: Template, side: 'top' | 'bottom'): number {
  return Math.round(parseFloat(template.page.margins[side]) * PX_PER_MM);
}

function withoutBands(template: Template): Template {
  const { header: _header, footer: _footer, ...page } = template.page;
  return { ...template, page };
}

describe('4.12: the preview image shows the first page as printed, header and footer bands included', () => {
  const service = useRenderService('preview');

  async function preview(template: Template, data: unknown): Promise<Pixels> {
    const outputBlobKey = `orgs/${ORG}/previews/${Math.random().toString(36).slice(2)}.png`;
    const result = await service.bus.request(
      MessageName.RenderPreview,
      { requestId: 'preview', organisationId: ORG, template, sampleData: { data }, translations: null, customFonts: [], outputBlobKey, deadline: Date.now() + 60_000 },
      { timeoutMs: 90_000 },
    );
    expect(result.outcome).toBe('rendered');
    return decodePng(await service.blobStore.get(outputBlobKey));
  }

  /** The printed PDF's first page, rasterised by poppler at the preview's 96 pixels per inch. */
  async function printedFirstPage(template: Template, data: unknown): Promise<Pixels> {
    const result = await service.bus.request(MessageName.RenderDocument, renderCommand({ template, data: { inline: data }, environment: Environment.Production }), { timeoutMs: 90_000 });
    expect(result.outcome).toBe('rendered');
    return decodePng(await firstPagePng(await service.blobStore.get(result.pdf?.blobKey ?? ''), 96));
  }

  /** The preview and the printed first page of one document, with its margins in pixels. */
  type FirstPages = { shown: Pixels; printed: Pixels; top: number; bottom: number };

  async function firstPages(template: Template, data: unknown): Promise<FirstPages> {
    const shown = await preview(template, data);
    const printed = await printedFirstPage(template, data);
    return { shown, printed, top: marginPx(template, 'top'), bottom: marginPx(template, 'bottom') };
  }

  /** The ink of the top and bottom margins of both pictures: same place (within 2 pixels of anti-aliasing: a wrong page count moves the centred "Page 1 of 24" by more), similar amount. */
  function expectSameBands({ shown, printed, top, bottom }: FirstPages): void {
    expect([shown.width, shown.height]).toEqual([printed.width, printed.height]);
    for (const [from, to] of [
      [0, top],
      [shown.height - bottom, shown.height],
    ]) {
      const inPreview = inkIn(shown, from, to);
      const onPaper = inkIn(printed, from, to);
      expect(inPreview.count).toBeGreaterThan(0);
      for (const edge of ['left', 'top', 'right', 'bottom'] as const) {
        expect(Math.abs((inPreview.box?.[edge] ?? -99) - (onPaper.box?.[edge] ?? 99))).toBeLessThanOrEqual(2);
      }
      expect(inPreview.count / onPaper.count).toBeGreaterThan(0.7);
      expect(inPreview.count / onPaper.count).toBeLessThan(1.4);
    }
  }

  it('the invoice preview shows its header (logo, sender) and footer ("Page 1 of 2") where the printed first page has them', async () => {
    const { template, data } = readExample('invoice');
    expectSameBands(await firstPages(template as Template, data));
  });

  it('the report preview numbers its bands with the real page count (totalPages of a 20+ page document)', async () => {
    const { template, data } = readExample('report');
    expectSameBands(await firstPages(template as Template, data));
  });

  /** The ink of the content area (between the margins) of both pictures ends on the same row, give or take anti-aliasing. */
  function expectSameContentEnd({ shown, printed, top, bottom }: FirstPages): void {
    const inPreview = inkIn(shown, top, shown.height - bottom).box;
    const onPaper = inkIn(printed, top, printed.height - bottom).box;
    expect(onPaper).not.toBeNull();
    expect(Math.abs((inPreview?.bottom ?? -99) - (onPaper?.bottom ?? 99))).toBeLessThanOrEqual(3);
  }

  it('a page break ends the first page: what the printer puts on page 2 is not in the preview', async () => {
    const paragraph = (id: string, text: string) => ({ type: 'text', id, text, style: { fontSize: 28 } });
    const template: Template = {
      dsl: 1,
      name: 'Two pages',
      page: { size: 'A5', margins: { top: '20mm', right: '15mm', bottom: '20mm', left: '15mm' } },
      body: [paragraph('first', 'Page one'), { type: 'pageBreak', id: 'break' }, paragraph('second', 'Page two'), paragraph('third', 'still page two')],
    };
    expectSameContentEnd(await firstPages(template, {}));
  });

  it('rows that do not fit on the first page are not in the preview (the report table continues on page 2)', async () => {
    const { template, data } = readExample('report');
    expectSameContentEnd(await firstPages(template as Template, data));
  });

  it('the page background fills the whole sheet, margins included, as on paper', async () => {
    // a 1×1 red PNG, stretched over the sheet
    const red = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
    const template: Template = {
      dsl: 1,
      name: 'Background',
      page: { size: 'A5', margins: { top: '15mm', right: '15mm', bottom: '15mm', left: '15mm' }, background: { source: red, fit: 'stretch' } },
      body: [{ type: 'text', id: 'hello', text: 'On red' }],
    };
    const { shown, printed } = await firstPages(template, {});
    const pixel = (p: Pixels, x: number, y: number) => [...p.rgb.subarray((y * p.width + x) * 3, (y * p.width + x) * 3 + 3)];
    for (const [x, y] of [
      [5, 5],
      [shown.width - 6, shown.height - 6],
      [Math.round(shown.width / 2), shown.height - 10],
    ]) {
      expect(pixel(printed, x, y)[0]).toBeGreaterThan(200);
      expect(pixel(printed, x, y)[1]).toBeLessThan(60);
      expect(Math.abs(pixel(shown, x, y)[0] - pixel(printed, x, y)[0])).toBeLessThan(30);
      expect(Math.abs(pixel(shown, x, y)[1] - pixel(printed, x, y)[1])).toBeLessThan(30);
    }
  });

  it('a template without bands keeps white margins and the same content as with them', async () => {
    const { template, data } = readExample('invoice');
    const invoice = template as Template;
    const top = marginPx(invoice, 'top');
    const bottom = marginPx(invoice, 'bottom');
    const withBands = await preview(invoice, data);
    const bare = await preview(withoutBands(invoice), data);
    expect(inkIn(bare, 0, top).count).toBe(0);
    expect(sameRows(bare, withBands, top, bare.height - bottom)).toBe(true);
  });
});
