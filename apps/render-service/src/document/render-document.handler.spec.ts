import { Environment, ErrorCode, RenderIssueType } from '@docrender/contracts';
import { BrowserCrashedError, BrowserPoolClosedError } from '../chromium/browser-crashed.error';
import { RenderBudgetEstimateError, RenderTimeoutError } from '../chromium/render-timeout.error';
import { NO_CONFORMANCE } from '../pdf/archival-stage';
import { fakeRenderDependencies } from '../../test/fake-render-dependencies';
import { renderCommand } from '../../test/render-commands';
import { RenderDocumentHandler } from './render-document.handler';
import { TransientFailureError } from './transient-failure.error';

const template = { dsl: 1, name: 'Greeting', body: [{ type: 'text', id: 'greeting', text: 'Hello {{ name }}' }] };

function setUp(budgetMs = 60_000) {
  const { blobs, printer, sources, compiler, logger } = fakeRenderDependencies();
  const handler = new RenderDocumentHandler({ printer, blobStore: blobs, sources, compiler, options: { budgetMs, allowHttpImages: false }, logger });
  return { blobs, printer, handler };
}

describe('render.document handler (fake printer and blob store)', () => {
  it('stores the PDF at outputBlobKey and replies its page count read from the file, its size and the document name', async () => {
    const { blobs, printer, handler } = setUp();
    const command = renderCommand({ template, data: { inline: { name: 'Ada' } }, documentNameTemplate: 'Greeting for {{ name }}' });
    const result = await handler.handle(command);
    expect(result).toMatchObject({ outcome: 'rendered', documentName: 'Greeting for Ada', issues: [], failure: null });
    expect(result.pdf).toEqual({ blobKey: command.outputBlobKey, pageCount: 3, fileSizeBytes: blobs.blobs.get(command.outputBlobKey)?.length, conformance: NO_CONFORMANCE });
    expect(printer.requests[0]).toMatchObject({ tagged: false, javaScript: false, budgetMs: 60_000 });
    expect(printer.requests[0].html).toContain('Hello Ada');
    expect(printer.requests[0].html).toContain('class="wm"');
  });

  it('render.document inlinePdfMaxBytes: a PDF within the cap also comes back inline (base64 unless asked raw), stored at outputBlobKey all the same', async () => {
    const { blobs, handler } = setUp();
    const command = renderCommand({ template, data: { inline: { name: 'Ada' } }, inlinePdfMaxBytes: 1024 * 1024 });
    const result = await handler.handle(command);
    const stored = blobs.blobs.get(command.outputBlobKey);
    expect(stored).toBeDefined();
    expect(result.pdf).toEqual({ blobKey: command.outputBlobKey, pageCount: 3, fileSizeBytes: stored?.length, inlineBase64: stored?.toString('base64'), conformance: NO_CONFORMANCE });
  });

  it('0022 render.document inlinePdfBinary: a caller that takes the PDF raw gets its bytes, not base64', async () => {
    const { blobs, handler } = setUp();
    const command = renderCommand({ template, data: { inline: { name: 'Ada' } }, inlinePdfMaxBytes: 1024 * 1024, inlinePdfBinary: true });
    const result = await handler.handle(command);
    const stored = blobs.blobs.get(command.outputBlobKey);
    expect(result.pdf).toEqual({ blobKey: command.outputBlobKey, pageCount: 3, fileSizeBytes: stored?.length, inlineBytes: stored, conformance: NO_CONFORMANCE });
  });

  it('render.document inlinePdfMaxBytes: a PDF larger than the cap travels by blob key only', async () => {
    const { blobs, handler } = setUp();
    const command = renderCommand({ template, data: { inline: { name: 'Ada' } }, inlinePdfMaxBytes: 100 });
    const result = await handler.handle(command);
    expect(blobs.blobs.get(command.outputBlobKey)?.length).toBeGreaterThan(100);
    expect(result.pdf).not.toHaveProperty('inlineBase64');
    expect(result.pdf).not.toHaveProperty('inlineBytes');
    expect(result.pdf?.blobKey).toBe(command.outputBlobKey);
  });

  it('1: production output has no watermark', async () => {
    const { printer, handler } = setUp();
    await handler.handle(renderCommand({ template, data: { inline: { name: 'Ada' } }, environment: Environment.Production }));
    expect(printer.requests[0].html).not.toContain('class="wm"');
  });

  it('7.4: a blocked document is never printed', async () => {
    const { printer, blobs, handler } = setUp();
    const result = await handler.handle(renderCommand({ template, data: { inline: {} }, environment: Environment.Production }));
    expect(result.outcome).toBe('blocked');
    expect(result.issues.map((i) => i.type)).toEqual([RenderIssueType.MissingBinding]);
    expect(printer.requests).toEqual([]);
    expect(blobs.blobs.size).toBe(0);
  });

  it('issue 32 item 7: each render announces its document to the printer before compiling it; the announcement ends in the print, or is withdrawn when the document is blocked or fails before printing', async () => {
    const outcomes = [];
    for (const [data, failure] of [
      [{ inline: { name: 'Ada' } }, null],
      [{ inline: {} }, null],
      [{ json: '{"name": ' }, null],
      [{ inline: { name: 'Ada' } }, new RenderTimeoutError(60_000)],
    ] as const) {
      const { printer, handler } = setUp();
      printer.failure = failure;
      const result = await handler.handle(renderCommand({ template, data, environment: Environment.Production }));
      outcomes.push({ outcome: result.outcome, announced: printer.announced });
    }
    expect(outcomes).toEqual([
      { outcome: 'rendered', announced: { expected: 1, arrived: 1, withdrawn: 0 } },
      { outcome: 'blocked', announced: { expected: 1, arrived: 0, withdrawn: 1 } },
      { outcome: 'blocked', announced: { expected: 1, arrived: 0, withdrawn: 1 } },
      { outcome: 'failed', announced: { expected: 1, arrived: 1, withdrawn: 0 } },
    ]);
  });

  it('issue 20 item 6: a placed element the printer finds below the bottom margin is a RenderLayoutDegraded issue naming it; it blocks a production render (nothing stored) and not a test one', async () => {
    const placed = { dsl: 1, body: [{ type: 'text', id: 'address', position: { x: '20mm', y: '250mm' }, text: 'Line 1' }] };
    for (const [environment, outcome] of [
      [Environment.Test, 'rendered'],
      [Environment.Production, 'blocked'],
    ] as const) {
      const { printer, blobs, handler } = setUp();
      printer.placedBeyondPage = ['address'];
      const result = await handler.handle(renderCommand({ template: placed, data: { inline: {} }, environment }));
      expect(printer.requests[0].placedToMeasure).toBe(true);
      expect({ environment, outcome: result.outcome, issues: result.issues.map((i) => [i.type, i.elementId]) }).toEqual({
        environment,
        outcome,
        issues: [[RenderIssueType.RenderLayoutDegraded, 'address']],
      });
      expect(blobs.blobs.size).toBe(outcome === 'rendered' ? 1 : 0);
    }
  });

  it('issue 32 item 4: a document with page references is printed with them and its outline; an anchor whose page the print did not tell is a RenderLayoutDegraded issue', async () => {
    const referring = { dsl: 1, outline: true, body: [{ type: 'text', id: 'see', text: 'See page {{ pageOf("end") }}' }, { type: 'text', id: 'end', anchor: 'end', text: 'End' }] };
    const { printer, handler } = setUp();
    printer.anchorsNotPrinted = ['end'];
    const result = await handler.handle(renderCommand({ template: referring, data: { inline: {} } }));
    expect(printer.requests[0]).toMatchObject({ pageReferences: true, outline: true });
    expect(result.outcome).toBe('rendered');
    expect(result.issues.map((i) => [i.type, i.description])).toEqual([[RenderIssueType.RenderLayoutDegraded, expect.stringContaining('The page of the anchor "end" was not found in the print')]]);
  });

  it('7.3: JSON text that is not JSON is an InvalidJson Error and blocks', async () => {
    const { printer, handler } = setUp();
    const result = await handler.handle(renderCommand({ template, data: { json: '{"name": ' } }));
    expect(result.outcome).toBe('blocked');
    expect(result.issues.map((i) => i.type)).toEqual([RenderIssueType.InvalidJson]);
    expect(printer.requests).toEqual([]);
  });

  it('8: a deadline already past is a RenderTimeout without any work', async () => {
    const { printer, handler } = setUp();
    const result = await handler.handle(renderCommand({ template, data: { inline: { name: 'Ada' } }, deadline: Date.now() - 1 }));
    expect(result).toMatchObject({ outcome: 'failed', pdf: null, failure: { code: ErrorCode.RenderTimeout } });
    expect(result.issues.map((i) => i.type)).toEqual([RenderIssueType.RenderTimeout]);
    expect(printer.requests).toEqual([]);
  });

  it('8: the print deadline is the earlier of the command deadline and the render budget', async () => {
    const { printer, handler } = setUp(5_000);
    const before = Date.now();
    await handler.handle(renderCommand({ template, data: { inline: { name: 'Ada' } }, deadline: before + 60_000 }));
    expect(printer.requests[0].deadline).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(printer.requests[0].deadline).toBeGreaterThanOrEqual(before + 5_000);
  });

  it('8: a print past the budget is a failed reply with a RenderTimeout issue', async () => {
    const { printer, handler } = setUp();
    printer.failure = new RenderTimeoutError(60_000);
    const result = await handler.handle(renderCommand({ template, data: { inline: { name: 'Ada' } } }));
    expect(result).toMatchObject({ outcome: 'failed', failure: { code: ErrorCode.RenderTimeout, message: 'The document exceeded its render budget of 60 s.' } });
  });

  it('issue 32 item 3: a document found too long for what is left of its budget fails before its real print, with a RenderTimeout issue that says so', async () => {
    const { printer, handler } = setUp();
    printer.failure = new RenderBudgetEstimateError(60_000, 'printing it to measure it took 41.0 s, the real print takes at least as long, and 19.0 s of the budget were left');
    const result = await handler.handle(renderCommand({ template, data: { inline: { name: 'Ada' } } }));
    const message = 'The document cannot be printed within its render budget of 60 s: printing it to measure it took 41.0 s, the real print takes at least as long, and 19.0 s of the budget were left.';
    expect(result).toMatchObject({ outcome: 'failed', failure: { code: ErrorCode.RenderTimeout, message } });
    expect(result.issues).toEqual([expect.objectContaining({ type: RenderIssueType.RenderTimeout, description: message })]);
  });

  it('3.1 rule 2: a document that crashed Chromium twice is a failed reply (InternalError) explained by a RenderTimeout issue, not a redelivery', async () => {
    const { printer, handler } = setUp();
    printer.failure = new BrowserCrashedError('killed');
    const result = await handler.handle(renderCommand({ template, data: { inline: { name: 'Ada' } } }));
    expect(result).toMatchObject({ outcome: 'failed', failure: { code: ErrorCode.InternalError } });
    expect(result.issues).toEqual([expect.objectContaining({ type: RenderIssueType.RenderTimeout, severity: 'Error', description: expect.stringContaining('Chromium crashed twice') })]);
  });

  it('issue 18 item 4: a blob store outage while storing the PDF is waited out inside the budget; the document renders once the store is back', async () => {
    const { blobs, handler } = setUp();
    blobs.outagePuts = 3;
    const command = renderCommand({ template, data: { inline: { name: 'Ada' } } });
    const result = await handler.handle(command);
    expect(result).toMatchObject({ outcome: 'rendered', pdf: { blobKey: command.outputBlobKey } });
    expect([blobs.refusedPuts, (await blobs.stat(command.outputBlobKey)) !== null]).toEqual([3, true]);
  });

  it('issue 31 item 6: a blob store outage while reading a custom font is waited out like the data; the document prints with the family, not without it', async () => {
    const { blobs, printer, handler } = setUp();
    const fontKey = 'organisations/org-1/fonts/brand-sans-400-normal.woff2';
    await blobs.put(fontKey, Buffer.from('wOF2-brand-sans'), 'font/woff2');
    blobs.outageGets = 2;
    const branded = { dsl: 1, body: [{ type: 'text', id: 'brand', text: 'Brand', style: { fontFamily: 'Brand Sans' } }] };
    const command = renderCommand({ template: branded, data: { inline: {} }, customFonts: [{ family: 'Brand Sans', weight: 400, style: 'normal', blobKey: fontKey, format: 'woff2' }] });
    const result = await handler.handle(command);
    expect(result).toMatchObject({ outcome: 'rendered', issues: [] });
    expect(blobs.refusedGets).toBe(2);
    expect(printer.requests[0].html).toContain(`@font-face{font-family:'Brand Sans';font-style:normal;font-weight:400;font-display:block;src:url(data:font/woff2;base64,${Buffer.from('wOF2-brand-sans').toString('base64')})`);
  });

  it('issue 18 items 3, 4: the blob store down past the budget is a failed reply with ExternalServiceError and a RenderTimeout issue', async () => {
    const { blobs, handler } = setUp(1_500);
    blobs.outagePuts = Number.MAX_SAFE_INTEGER;
    const result = await handler.handle(renderCommand({ template, data: { inline: { name: 'Ada' } } }));
    expect(result).toMatchObject({ outcome: 'failed', pdf: null, failure: { code: ErrorCode.ExternalServiceError } });
    expect(result.issues).toEqual([expect.objectContaining({ type: RenderIssueType.RenderTimeout, description: expect.stringContaining('blob store stayed unreachable') })]);
  });

  it('issue 31 item 4: a stored template that does not validate is blocked with the DSL\'s SchemaInvalid issue naming its element, never printed', async () => {
    const { handler, printer } = setUp();
    const unknownFunction = { dsl: 1, body: [{ type: 'text', id: 'total', text: 'Sum {{ nosuchfn(items) }}' }] };
    for (const environment of [Environment.Test, Environment.Production]) {
      const result = await handler.handle(renderCommand({ template: unknownFunction, data: { inline: { items: [] } }, environment }));
      expect(result).toMatchObject({ outcome: 'blocked', pdf: null, failure: null });
      expect(result.issues).toEqual([
        expect.objectContaining({ type: RenderIssueType.SchemaInvalid, severity: 'Error', elementId: 'total', description: expect.stringContaining('unknown function "nosuchfn"') }),
      ]);
    }
    const notAList = await handler.handle(renderCommand({ template: { dsl: 1, body: 'nope' }, data: { inline: {} } }));
    expect(notAList).toMatchObject({ outcome: 'blocked', issues: [expect.objectContaining({ type: RenderIssueType.SchemaInvalid, elementId: null })] });
    expect(printer.requests).toEqual([]);
  });

  it('throws (so the message returns to the queue) when shutting down or when the PDF cannot be stored', async () => {
    const closing = setUp();
    closing.printer.failure = new BrowserPoolClosedError();
    await expect(closing.handler.handle(renderCommand({ template, data: { inline: { name: 'Ada' } } }))).rejects.toBeInstanceOf(BrowserPoolClosedError);

    const storeDown = setUp();
    storeDown.blobs.failPuts = true;
    await expect(storeDown.handler.handle(renderCommand({ template, data: { inline: { name: 'Ada' } } }))).rejects.toBeInstanceOf(TransientFailureError);
  });

  it('a document whose delivery was abandoned (its message went back to the queue) is neither printed nor stored, nor replied', async () => {
    const command = renderCommand({ template, data: { inline: { name: 'Ada' } } });
    const before = setUp();
    const lostBefore = new AbortController();
    lostBefore.abort();
    await expect(before.handler.handle(command, lostBefore.signal)).rejects.toBeInstanceOf(TransientFailureError);
    expect(before.printer.requests).toEqual([]);

    const during = setUp();
    const lostDuring = new AbortController();
    during.printer.onStart = () => lostDuring.abort();
    await expect(during.handler.handle(command, lostDuring.signal)).rejects.toBeInstanceOf(TransientFailureError);
    expect(during.printer.requests).toHaveLength(1);
    expect(during.blobs.blobs.size).toBe(0);
  });

  it('reads data from the blob store; a missing data blob is a failed reply, not an endless redelivery', async () => {
    const { blobs, handler } = setUp();
    await blobs.put('inputs/1.json', Buffer.from('{"name":"Blob"}'), 'application/json');
    const fromBlob = await handler.handle(renderCommand({ template, data: { blobKey: 'inputs/1.json' } }));
    expect(fromBlob.outcome).toBe('rendered');
    const missing = await handler.handle(renderCommand({ template, data: { blobKey: 'inputs/missing.json' } }));
    expect(missing).toMatchObject({ outcome: 'failed', failure: { code: ErrorCode.InternalError } });
  });
});
