import { getDocument, GlobalWorkerOptions, PDFWorker } from 'pdfjs-dist';

// the worker is served beside app.js (tools/build.mjs copies it from pdfjs-dist)
GlobalWorkerOptions.workerSrc = new URL('pdf.worker.min.mjs', document.baseURI).toString();

/**
 * One worker for every PDF the page draws. Left to itself, getDocument starts a worker per document (and destroying the
 * document ends it): loading and compiling the 1.3 MB worker script again took most of a preview's time in the browser.
 * A worker given to getDocument outlives the documents it reads.
 */
let worker: PDFWorker | null = null;

/**
 * Draws every page of a PDF as a canvas, in order, into `target` (issue 35 item 3: the real PDF, page by page, so
 * the author sees how content flows across pages). pdf.js 6 uses no eval, so the page's Content-Security-Policy holds.
 */
export async function drawPdf(bytes: Uint8Array, target: HTMLElement, width: number): Promise<number> {
  worker ??= new PDFWorker();
  const loading = getDocument({ data: bytes, enableXfa: false, worker });
  const pdf = await loading.promise;
  try {
    const canvases: HTMLCanvasElement[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const base = page.getViewport({ scale: 1 });
      const scale = (width / base.width) * (window.devicePixelRatio || 1);
      const viewport = page.getViewport({ scale });
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.className = 'page';
      canvas.setAttribute('aria-label', `page ${n} of ${pdf.numPages}`);
      await page.render({ canvas, viewport }).promise;
      canvases.push(canvas);
    }
    target.replaceChildren(...canvases);
    return pdf.numPages;
  } finally {
    await loading.destroy();
  }
}
