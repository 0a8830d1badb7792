import { PDFDocument } from '@cantoo/pdf-lib';
import { JsonLogger } from '@docrender/observability';
import { BlobStoreUnavailableError, MemoryBlobStore } from '@docrender/storage';
import type { DocumentPrinter, ExpectedDocument, PrintedPdf, PrintPdfRequest, ScreenshotRequest } from '../src/chromium/document-printer';
import { DocumentSources } from '../src/document/document-sources';
import { FontFileCache } from '../src/document/font-file.cache';
import { ImageResolver } from '../src/document/image-resolver';
import { CompileTask } from '../src/compile/compile-task';
import { DocumentCompiler } from '../src/compile/document-compiler';

/**
 * The unit tests' blob store, whose puts can be made to fail: with a plain error (`failPuts`), or as an outage
 * (BlobStoreUnavailableError) for the next `outagePuts` puts; likewise the next `outageGets` gets.
 */
export class FlakyBlobStore extends MemoryBlobStore {
  failPuts = false;
  outagePuts = 0;
  /** Puts refused as an outage so far. */
  refusedPuts = 0;
  outageGets = 0;
  /** Gets refused as an outage so far. */
  refusedGets = 0;
  override async get(key: string): Promise<Buffer> {
    if (this.outageGets > 0) {
      this.outageGets--;
      this.refusedGets++;
      throw new BlobStoreUnavailableError('get', key, new Error('connect ECONNREFUSED'));
    }
    return super.get(key);
  }
  override async put(key: string, body: Buffer, contentType: string): Promise<void> {
    if (this.failPuts) throw new Error('S3 is away');
    if (this.outagePuts > 0) {
      this.outagePuts--;
      this.refusedPuts++;
      throw new BlobStoreUnavailableError('put', key, new Error('connect ECONNREFUSED'));
    }
    return super.put(key, body, contentType);
  }
}

/** The PNG signature and nothing else: enough for a handler that stores what the printer gives it. */
export const FAKE_PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A printer that answers with a real 3-page PDF (or FAKE_PNG for a screenshot), or fails the way it is told to. */
export class FakePrinter implements DocumentPrinter {
  readonly requests: PrintPdfRequest[] = [];
  readonly screenshots: ScreenshotRequest[] = [];
  failure: Error | null = null;

  /** Placed elements the printer says reach below the first page (PrintedPdf.placedBeyondPage). */
  placedBeyondPage: string[] = [];
  /** Anchors whose page the printer says it did not find (PrintedPdf.anchorsNotPrinted). */
  anchorsNotPrinted: string[] = [];
  /** Called as each print or screenshot starts (e.g. to abandon the delivery while it prints). */
  onStart: () => void = () => undefined;
  /** Documents announced (expect) and how each announcement ended so far. */
  readonly announced = { expected: 0, arrived: 0, withdrawn: 0 };

  expect(): ExpectedDocument {
    this.announced.expected++;
    let onItsWay = true;
    return {
      printPdf: (request) => {
        if (onItsWay) this.announced.arrived++;
        onItsWay = false;
        return this.printPdf(request);
      },
      withdraw: () => {
        if (onItsWay) this.announced.withdrawn++;
        onItsWay = false;
      },
    };
  }

  async printPdf(request: PrintPdfRequest): Promise<PrintedPdf> {
    this.onStart();
    this.requests.push(request);
    if (this.failure) throw this.failure;
    const document = await PDFDocument.create();
    for (let i = 0; i < 3; i++) document.addPage();
    return { pdf: Buffer.from(await document.save()), placedBeyondPage: this.placedBeyondPage, anchorsNotPrinted: this.anchorsNotPrinted };
  }

  async screenshotFirstPage(request: ScreenshotRequest): Promise<Buffer> {
    this.onStart();
    this.screenshots.push(request);
    if (this.failure) throw this.failure;
    return FAKE_PNG;
  }
}

export const quietLogger = new JsonLogger('render-service-unit', 'error', {}, () => undefined);

/** The compiler of the unit tests: CompileTask run in place, on the test's own thread, rather than on compile threads. */
export function inPlaceCompiler(): DocumentCompiler {
  const task = new CompileTask();
  return new DocumentCompiler({ run: (request) => Promise.resolve(task.run(request)), close: () => Promise.resolve() }, 64, quietLogger);
}

/** What the render handlers are built from, with the fakes above and the real caches and resolvers. */
export function fakeRenderDependencies() {
  const blobs = new FlakyBlobStore();
  const printer = new FakePrinter();
  const sources = new DocumentSources(
    blobs,
    new ImageResolver(blobs, { policy: { allowHttp: false, allowPrivate: false }, fetchTimeoutMs: 1000, maxBytes: 1024 }, quietLogger),
    new FontFileCache(blobs, 1024),
    quietLogger,
  );
  return { blobs, printer, sources, compiler: inPlaceCompiler(), logger: quietLogger };
}
