import { Environment, RenderIssueType } from '@docrender/contracts';
import { WorkerOutOfMemoryError, WorkerTaskAbortedError } from '@docrender/platform';
import { PDFDocument } from '@cantoo/pdf-lib';
import { quietLogger } from '../../test/fake-render-dependencies';
import { RenderTimeoutError } from '../chromium/render-timeout.error';
import { CompileTask, type CompileReply, type CompileRequest } from './compile-task';
import { CompileAbandonedError, CompileOutOfMemoryError, DocumentCompiler, type CompileThreads } from './document-compiler';

/** Threads that run CompileTask in place and record the compiles they were asked. */
function threadsInPlace(): CompileThreads & { requests: CompileRequest[] } {
  const task = new CompileTask();
  const requests: CompileRequest[] = [];
  return {
    requests,
    run: (request) => {
      if (!('kind' in request)) requests.push(request);
      return Promise.resolve(task.run(request));
    },
    close: () => Promise.resolve(),
  };
}

const document = (template: unknown, data: unknown): Parameters<DocumentCompiler['compile']>[0] => ({
  template,
  data: { value: data },
  environment: Environment.Test,
  customFonts: [],
  watermark: null,
  allowHttpImages: false,
  servedFonts: false,
});

const context = (overrides: Partial<Parameters<DocumentCompiler['compile']>[1]> = {}): Parameters<DocumentCompiler['compile']>[1] => ({
  deadline: Date.now() + 60_000,
  budgetMs: 60_000,
  resolveImages: () => Promise.reject(new Error('no images expected')),
  ...overrides,
});

describe('DocumentCompiler (CompileTask in place of the threads)', () => {
  it('a document without images takes one request, its data checked once', async () => {
    const threads = threadsInPlace();
    const outcome = await new DocumentCompiler(threads, 64, quietLogger).compile(document({ dsl: 1, body: [{ type: 'text', id: 't', text: 'Hi {{ name }}' }] }, { name: 'Ada' }), context());
    expect(outcome.kind).toBe('compiled');
    expect(outcome.kind === 'compiled' && outcome.document.html).toContain('Hi Ada');
    expect(threads.requests.map((r) => [r.images, r.dataChecked])).toEqual([[null, false]]);
  });

  it('RENDER_MAX_PRINTED_HTML_MB: a layout larger than the service prints is blocked before printing, with a RenderTimeout issue naming the setting', async () => {
    const template = { dsl: 1, body: [{ type: 'text', id: 'statement', text: '{{ long }}' }] };
    const data = { long: 'a line of the statement '.repeat(10_000) };
    const printed = await new DocumentCompiler(threadsInPlace(), 64, quietLogger).compile(document(template, data), context());
    expect(printed.kind).toBe('compiled');
    const outcome = await new DocumentCompiler(threadsInPlace(), 64, quietLogger, 100_000).compile(document(template, data), context());
    expect(outcome.kind).toBe('blocked');
    const issues = outcome.kind === 'blocked' ? outcome.issues : [];
    expect(issues).toEqual([expect.objectContaining({ type: RenderIssueType.RenderTimeout, description: expect.stringMatching(/layout is 0\.\d MB of HTML, more than the 0\.1 MB this service prints \(RENDER_MAX_PRINTED_HTML_MB/) })]);
  });

  it('a document with images: the thread lists the references, this thread fetches them, the second request compiles without checking the data again', async () => {
    const threads = threadsInPlace();
    const resolved: string[][] = [];
    const template = { dsl: 1, body: [{ type: 'image', id: 'logo', source: 'asset:logo.png', width: '10mm', height: '10mm' }] };
    const outcome = await new DocumentCompiler(threads, 64, quietLogger).compile(
      document(template, {}),
      context({
        resolveImages: (references) => {
          resolved.push(references);
          return Promise.resolve(new Map([['asset:logo.png', { error: 'the organisation has no asset named logo.png' }]]));
        },
      }),
    );
    expect(resolved).toEqual([['asset:logo.png']]);
    expect(threads.requests.map((r) => r.dataChecked)).toEqual([false, true]);
    expect(outcome.kind === 'compiled' && outcome.document.issues.map((i) => [i.type, i.elementId])).toEqual([[RenderIssueType.UnresolvedImage, 'logo']]);
  });

  it('0011: page variants are asked of a thread once per page count, every page in one request', async () => {
    const threads = threadsInPlace();
    const template = {
      dsl: 1,
      page: { header: { elements: [{ type: 'text', id: 'later', text: 'Later' }], first: { elements: [{ type: 'text', id: 'first', text: 'First' }] } } },
      body: [{ type: 'text', id: 'b', text: 'body' }],
    };
    const outcome = await new DocumentCompiler(threads, 64, quietLogger).compile(document(template, {}), context());
    if (outcome.kind !== 'compiled' || outcome.document.pageVariant === null) throw new Error('expected a document whose pages differ');
    const variantOf = outcome.document.pageVariant;
    const variants = await Promise.all([1, 2, 3].map((n) => variantOf(n, 3)));
    expect(variants[0].headerHtml).toContain('First');
    expect(variants[1].headerHtml).toContain('Later');
    expect(threads.requests.map((r) => r.variantsFor)).toEqual([undefined, 3]);
  });

  it('issue 31 item 1: a compile stopped at the deadline is RenderTimeoutError; stopped because the message went back to the queue, CompileAbandonedError', async () => {
    const stopped: CompileThreads = {
      run: (_request, options) =>
        new Promise<CompileReply>((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(new WorkerTaskAbortedError('test', options.signal?.reason)))),
      close: () => Promise.resolve(),
    };
    const compiler = new DocumentCompiler(stopped, 64, quietLogger);
    await expect(compiler.compile(document({ dsl: 1, body: [] }, {}), context({ deadline: Date.now() + 50, budgetMs: 50 }))).rejects.toBeInstanceOf(RenderTimeoutError);
    const abandoned = new AbortController();
    const compiling = compiler.compile(document({ dsl: 1, body: [] }, {}), context({ abandoned: abandoned.signal }));
    abandoned.abort();
    await expect(compiling).rejects.toBeInstanceOf(CompileAbandonedError);
    await expect(compiler.compile(document({ dsl: 1, body: [] }, {}), context({ deadline: Date.now() - 1 }))).rejects.toBeInstanceOf(RenderTimeoutError);
  });

  it('issue 31 item 1: a thread out of heap is CompileOutOfMemoryError naming RENDER_COMPILE_HEAP_MB', async () => {
    const outOfMemory: CompileThreads = { run: () => Promise.reject(new WorkerOutOfMemoryError('test', 128)), close: () => Promise.resolve() };
    await expect(new DocumentCompiler(outOfMemory, 128, quietLogger).compile(document({ dsl: 1, body: [] }, {}), context())).rejects.toThrow(
      new CompileOutOfMemoryError(128).message,
    );
  });
});

describe('issue 34: the archival stage runs on a compile thread', () => {
  it('a printed PDF comes back archived, as a Buffer, with its conformance', async () => {
    const printed = Buffer.from(await (await PDFDocument.create()).save({ useObjectStreams: false }));
    const archival = { pdfA: null, pdfUA: null, author: 'Ada', subject: null, keywords: null, creator: null, language: 'en', attachments: [] };
    const outcome = await new DocumentCompiler(threadsInPlace(), 64, quietLogger).archive(printed, { title: 'T', archival }, 'docrender', {
      deadline: Date.now() + 60_000,
      budgetMs: 60_000,
    });
    expect(outcome.pdf).toBeInstanceOf(Buffer);
    if (outcome.pdf !== null) expect(outcome.conformance).toEqual({ pdfA: null, pdfUA: null, checks: 'none', rules: [], eInvoice: null });
  });
});
