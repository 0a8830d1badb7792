import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';

// the worker is served beside app.js (tools/build.mjs copies it from pdfjs-dist)
GlobalWorkerOptions.workerSrc = new URL('pdf.worker.min.mjs', document.baseURI).toString();

/**
 * Draws every page of a PDF as a canvas, in order, into `target` (issue 35 item 3: the real PDF, page by page, so
 * the author sees how content flows across pages). pdf.js 6 uses no eval, so the page's Content-Security-Policy holds.
 */
export async function drawPdf(bytes: Uint8Array, target: HTMLElement, width: number): Promise<number> {
  const loading = getDocument({ data: bytes, enableXfa: false });
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
