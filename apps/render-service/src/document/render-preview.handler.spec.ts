import type { RenderPreviewCommand } from '@docrender/contracts';
import { FAKE_PNG, fakeRenderDependencies } from '../../test/fake-render-dependencies';
import { RenderPreviewHandler } from './render-preview.handler';
import { TransientFailureError } from './transient-failure.error';

const template = { dsl: 1, name: 'Greeting', body: [{ type: 'text', id: 'greeting', text: 'Hello {{ name }}' }] };

function previewCommand(): RenderPreviewCommand {
  return {
    requestId: 'preview-1',
    organisationId: '00000000-0000-4000-8000-0000000000aa',
    template,
    sampleData: { data: { name: 'Ada' } },
    translations: null,
    customFonts: [],
    outputBlobKey: 'orgs/test/previews/greeting/1.png',
    deadline: Date.now() + 60_000,
  };
}

function setUp() {
  const { blobs, printer, sources, compiler, logger } = fakeRenderDependencies();
  const handler = new RenderPreviewHandler({ printer, blobStore: blobs, sources, compiler, options: { budgetMs: 60_000, allowHttpImages: false }, logger });
  return { blobs, printer, handler };
}

describe('render.preview handler (fake printer and blob store)', () => {
  it('stores the first page picture at outputBlobKey and replies its key and size', async () => {
    const { blobs, printer, handler } = setUp();
    const result = await handler.handle(previewCommand());
    expect(result).toEqual({ outcome: 'rendered', issues: [], png: { blobKey: 'orgs/test/previews/greeting/1.png', fileSizeBytes: FAKE_PNG.length }, failure: null });
    expect(await blobs.get('orgs/test/previews/greeting/1.png')).toEqual(FAKE_PNG);
    expect(printer.screenshots).toHaveLength(1);
  });

  it('a preview whose delivery was abandoned (its message went back to the queue) is neither rendered nor stored, nor replied', async () => {
    const before = setUp();
    const lostBefore = new AbortController();
    lostBefore.abort();
    await expect(before.handler.handle(previewCommand(), lostBefore.signal)).rejects.toBeInstanceOf(TransientFailureError);
    expect(before.printer.screenshots).toEqual([]);

    const during = setUp();
    const lostDuring = new AbortController();
    during.printer.onStart = () => lostDuring.abort();
    await expect(during.handler.handle(previewCommand(), lostDuring.signal)).rejects.toBeInstanceOf(TransientFailureError);
    expect(during.printer.screenshots).toHaveLength(1);
    expect(during.blobs.blobs.size).toBe(0);
  });

  it('issue 31 item 6: a blob store outage while reading a custom font fails the preview as transient (tried again), never a picture without the family', async () => {
    const { blobs, printer, handler } = setUp();
    const fontKey = 'organisations/org-1/fonts/brand-sans-400-normal.woff2';
    await blobs.put(fontKey, Buffer.from('wOF2-brand-sans'), 'font/woff2');
    blobs.outageGets = 1;
    const command = { ...previewCommand(), customFonts: [{ family: 'Brand Sans', weight: 400, style: 'normal' as const, blobKey: fontKey, format: 'woff2' }] };
    await expect(handler.handle(command)).rejects.toBeInstanceOf(TransientFailureError);
    expect(printer.screenshots).toEqual([]);
  });
});
