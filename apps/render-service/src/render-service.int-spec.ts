import { readFile } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { Environment, IssueSeverity, MessageName, RenderDocumentResult, RenderIssueType } from '@docrender/contracts';
import { EXAMPLES_DIR, readExample, renderCommand, useRenderService } from '../test/render-service.harness';
import { pdfInfo, pdfText } from '../test/pdf-tools';

const ORG = '00000000-0000-4000-8000-0000000000aa';
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('render-service (real Chromium, in-process bus, filesystem blob store)', () => {
  const service = useRenderService('render');

  const render = (overrides: Parameters<typeof renderCommand>[0]) =>
    service.bus.request(MessageName.RenderDocument, renderCommand(overrides), { timeoutMs: 90_000 });

  const storedPdf = async (result: RenderDocumentResult): Promise<Buffer> => {
    expect(result.pdf).not.toBeNull();
    return service.blobStore.get(result.pdf?.blobKey ?? '');
  };

  it('1: the invoice example renders in test mode with its bound values and a TEST watermark on every page', async () => {
    const { template, data } = readExample('invoice');
    const result = await render({ template, data: { inline: data }, documentNameTemplate: 'Invoice {{ number }}', environment: Environment.Test });
    expect(result).toMatchObject({ outcome: 'rendered', documentName: 'Invoice INV-2026-00042', failure: null });
    const pdf = await storedPdf(result);
    const info = await pdfInfo(pdf);
    expect(Number(info.Pages)).toBe(result.pdf?.pageCount);
    expect(result.pdf?.pageCount).toBeGreaterThanOrEqual(2);
    expect(result.pdf?.fileSizeBytes).toBe(pdf.length);
    expect(info.Title).toBe('Invoice INV-2026-00042');
    expect(info.Creator).toMatch(/^docrender render-service/);
    expect(info.CreationDate).not.toBe('');
    const text = await pdfText(pdf);
    expect(text).toContain('INV-2026-00042');
    expect(text).toContain('Globex Corporation');
    const raw = await pdfText(pdf, { raw: true });
    expect(raw.split('\f').filter((page) => page.trim() !== '').map((page) => /^TEST$/m.test(page))).toEqual(Array(result.pdf?.pageCount).fill(true));
  });

  it('1: the 1,000-row report renders in production with no watermark, its page count read from the file', async () => {
    const { template, data } = readExample('report');
    const result = await render({ template, data: { inline: data }, environment: Environment.Production });
    expect(result.outcome).toBe('rendered');
    const pdf = await storedPdf(result);
    expect(Number((await pdfInfo(pdf)).Pages)).toBe(result.pdf?.pageCount);
    expect(result.pdf?.pageCount).toBeGreaterThan(10);
    const raw = await pdfText(pdf, { raw: true });
    expect(raw).not.toMatch(/^TEST$/m);
    expect(raw).toContain('Sales report 2026');
  });

  it('1: the letter renders the translated strings of the requested language', async () => {
    const { template, data, translations } = readExample('letter');
    const result = await render({ template, data: { inline: data }, translations, language: 'de' });
    expect(result.outcome).toBe('rendered');
    const text = await pdfText(await storedPdf(result));
    expect(text).toContain('Ihre Vertragsverlängerung');
    expect(text).toContain('Mit freundlichen Grüßen');
    expect(text).toContain('C-2024-117');
  });

  it('4.18: the certificate uses the custom font read from the blob store; without the file it reports UnresolvedFont', async () => {
    const { template, data } = readExample('certificate');
    const font = await readFile(path.join(EXAMPLES_DIR, 'certificate/fonts/great-vibes-latin-400-normal.woff2'));
    await service.blobStore.put(`orgs/${ORG}/fonts/great-vibes-400.woff2`, font, 'font/woff2');
    const customFonts = [{ family: 'Great Vibes', weight: 400, style: 'normal' as const, blobKey: `orgs/${ORG}/fonts/great-vibes-400.woff2`, format: 'woff2' }];
    const withFont = await render({ template, data: { inline: data }, customFonts });
    expect(withFont.outcome).toBe('rendered');
    expect(withFont.issues.filter((i) => i.type === RenderIssueType.UnresolvedFont)).toEqual([]);
    expect(await pdfText(await storedPdf(withFont))).toContain('Amélie Fontaine');
    expect((await pdfInfo(await storedPdf(withFont))).Tagged).toBe('yes');

    const missing = await render({ template, data: { inline: data }, customFonts: [{ ...customFonts[0], blobKey: `orgs/${ORG}/fonts/missing.woff2` }] });
    expect(missing.outcome).toBe('rendered');
    expect(missing.issues.map((i) => i.type)).toContain(RenderIssueType.UnresolvedFont);
  });

  it('7.4: a Warning blocks a production render without printing; the same document renders in test with the issue', async () => {
    const template = { dsl: 1, name: 'Greeting', body: [{ type: 'text', id: 'greeting', text: 'Hello {{ name }}' }] };
    const command = renderCommand({ template, data: { inline: {} }, environment: Environment.Production });
    const production = await service.bus.request(MessageName.RenderDocument, command, { timeoutMs: 90_000 });
    expect(production.outcome).toBe('blocked');
    expect(production.pdf).toBeNull();
    expect(production.issues).toEqual([expect.objectContaining({ type: RenderIssueType.MissingBinding, severity: IssueSeverity.Warning, elementId: 'greeting' })]);
    await expect(service.blobStore.stat(command.outputBlobKey)).resolves.toBeNull();

    const test = await render({ template, data: { inline: {} }, environment: Environment.Test });
    expect(test.outcome).toBe('rendered');
    expect(test.issues).toEqual(production.issues);
  });

  it('7.3: data nested deeper than 32 levels is DangerousContent and blocks every render', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 40; i++) deep = { level: deep };
    const { template } = readExample('invoice');
    const result = await render({ template, data: { json: JSON.stringify(deep) } });
    expect(result.outcome).toBe('blocked');
    expect(result.issues.map((i) => i.type)).toContain(RenderIssueType.DangerousContent);
  });

  it('2.3: data and images come from the blob store; an image the egress policy refuses is UnresolvedImage', async () => {
    await service.blobStore.put(`orgs/${ORG}/assets/brand/logo.png`, PNG, 'image/png');
    await service.blobStore.put('inputs/data-1.json', Buffer.from(JSON.stringify({ who: 'blob data' })), 'application/json');
    const template = {
      dsl: 1,
      name: 'Images',
      body: [
        { type: 'text', id: 'who', text: 'From {{ who }}' },
        { type: 'image', id: 'asset', source: 'asset:brand/logo.png', width: '10mm', height: '10mm' },
        { type: 'image', id: 'private', source: 'https://127.0.0.1:1/logo.png', width: '10mm', height: '10mm' },
        { type: 'image', id: 'no-asset', source: 'asset:brand/missing.png', width: '10mm', height: '10mm' },
      ],
    };
    const result = await render({ template, data: { blobKey: 'inputs/data-1.json' } });
    expect(result.outcome).toBe('rendered');
    expect(result.issues.filter((i) => i.type === RenderIssueType.UnresolvedImage).map((i) => i.elementId).sort()).toEqual(['no-asset', 'private']);
    expect(await pdfText(await storedPdf(result))).toContain('From blob data');
  });

  it('8: a render past its budget fails with a RenderTimeout issue, and the next render succeeds', async () => {
    const { template, data } = readExample('report');
    const late = await render({ template, data: { inline: data }, deadline: Date.now() + 150 });
    expect(late).toMatchObject({ outcome: 'failed', pdf: null, failure: { code: 'RenderTimeout' } });
    expect(late.issues.map((i) => i.type)).toContain(RenderIssueType.RenderTimeout);
    const invoice = readExample('invoice');
    const next = await render({ template: invoice.template, data: { inline: invoice.data } });
    expect(next.outcome).toBe('rendered');
  });

  it('4.12: the preview is a PNG of the first page, stored in the blob store', async () => {
    const { template, data } = readExample('invoice');
    const result = await service.bus.request(
      MessageName.RenderPreview,
      {
        requestId: 'preview-1',
        organisationId: ORG,
        template,
        sampleData: { data, i18n: {} },
        translations: null,
        customFonts: [],
        outputBlobKey: `orgs/${ORG}/previews/invoice-1.png`,
        deadline: Date.now() + 60_000,
      },
      { timeoutMs: 90_000 },
    );
    expect(result).toMatchObject({ outcome: 'rendered', failure: null });
    const png = await service.blobStore.get(`orgs/${ORG}/previews/invoice-1.png`);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // A4 at 96 px per inch: 794 × 1123
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([794, 1123]);
    expect(result.png?.fileSizeBytes).toBe(png.length);
  });

  it('4.17: /v1/meta/status answers 200 with an empty body while Chromium, bus and blob store answer, 503 naming the one that does not', async () => {
    const ready = await request(service.app.getHttpServer()).get('/v1/meta/status');
    expect(ready.status).toBe(200);
    expect(ready.text).toBe('');
    await service.bus.close();
    const notReady = await request(service.app.getHttpServer()).get('/v1/meta/status');
    expect(notReady.status).toBe(503);
    expect(notReady.headers['content-type']).toMatch(/^text\/plain/);
    expect(notReady.text).toMatch(/^message bus unreachable/);
  });
});
