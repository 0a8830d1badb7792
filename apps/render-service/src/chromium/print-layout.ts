import type { CDPSession } from 'puppeteer-core';
import { evaluateInPage, valueInPage } from './in-page';

/** The page box of the document's `@page` rule, CSS pixels: the sheet's height, the margins, the content area's width. */
export type PageBox = { height: number; top: number; bottom: number; contentWidth: number };

type WindowState = 'normal' | 'minimized' | 'maximized' | 'fullscreen';

/**
 * The document laid out as printed, for measuring: print media emulated and the root given the width of the `@page`
 * content area (a style element of its own), so Chromium lays the document out with the same widths, fonts and line
 * breaks as in the print. Entered before measuring; the width is taken off before each print (`beforePrint`), the
 * media kept until `restore`, so a print reuses the styles the measures computed and the layout tree stays built
 * from one measure and print to the next. Entering sets the width before the media, so the document is laid out
 * once, at that width; measures made one after the other share the layout. A print made only to measure takes the
 * width off too and hides all that it does not read (`beforeMeasuringPrint`). Whoever prints a document with
 * page-aware tables or page references holds one PrintLayout from the first measure to the real print and restores it
 * after: switching the media back to the screen takes the layout tree down (the document is not displayed on screen:
 * laidOutForPrintOnly), and the next measure would build it again (traced at 3,000 catalogue products: filling in the
 * page references after the tables' measuring print took 0.8–1.2 s with the media switched back and forth, 0.13–0.14 s
 * in the layout held, and the real print after it 0.3–0.5 s less).
 *
 * The page's window is minimized from the first entering until the page is restored, the prints included. A page in
 * view draws a frame after every change to the document (styles, layout, paint, raster of what is in view), which
 * nothing here uses: the measures force the layout they need, and a print lays out and paints for paper. A hidden
 * page draws none. While all of its pages are hidden, Chromium runs their renderer at background priority (nice 5):
 * under a full CPU these documents yield to the others. Where the browser has no windows to minimize, the document
 * is measured and printed in view.
 */
export class PrintLayout {
  /** The root's style of the moment: laid out at the content area's width, painting only marker links, or its own. */
  private rootStyle: 'measuring' | 'measuringPrint' | null = null;
  private printMedia = false;
  /** The page's window while minimized (the state to give back); undefined before the first entering. */
  private window: { id: number; state: WindowState } | null | undefined = undefined;

  /** The document's page box, read at the first need. */
  private pageBox: PageBox | null = null;

  /** `screenMedia`: the media type the page emulates outside the layout (`''` for none, `'print'` for the preview). */
  constructor(
    private readonly devTools: CDPSession,
    private readonly screenMedia = '',
  ) {}

  /** The document's page box (its `@page` rule). */
  async box(): Promise<PageBox> {
    this.pageBox ??= await valueInPage<PageBox>(this.devTools, `(${pageBox.toString()})()`, 'reading the page box');
    return this.pageBox;
  }

  async enter(): Promise<void> {
    if (this.window === undefined) this.window = await minimize(this.devTools);
    await this.styleRoot('measuring');
    if (!this.printMedia) await this.devTools.send('Emulation.setEmulatedMedia', { media: 'print' });
    this.printMedia = true;
  }

  /** The root's own style again, as printed; the print media stays. Nothing to do before the first entering. */
  async beforePrint(): Promise<void> {
    await this.styleRoot(null);
  }

  /**
   * Before a print made only to measure the document (its pages, its anchors' named destinations, the marker links
   * of rows and placed elements): laid out as printed, with nothing painted but the marker links (MEASURING_PRINT).
   * The next `enter` or `beforePrint` takes it off.
   */
  async beforeMeasuringPrint(): Promise<void> {
    await this.styleRoot('measuringPrint');
  }

  /** The page as it was: the root's own style, the media it emulated, its window in view (nothing to do if never entered). */
  async restore(): Promise<void> {
    await this.beforePrint();
    if (this.printMedia) await this.devTools.send('Emulation.setEmulatedMedia', { media: this.screenMedia });
    this.printMedia = false;
    if (this.window) await this.devTools.send('Browser.setWindowBounds', { windowId: this.window.id, bounds: { windowState: this.window.state } });
    this.window = undefined;
  }

  private async styleRoot(style: 'measuring' | 'measuringPrint' | null): Promise<void> {
    if (this.rootStyle === style) return;
    const css = style === 'measuring' ? `html{width:${(await this.box()).contentWidth}px!important}` : style === 'measuringPrint' ? MEASURING_PRINT : null;
    await evaluateInPage(this.devTools, `(${styleRoot.toString()})(${JSON.stringify(css)})`, 'laying the document out for print');
    this.rootStyle = style;
  }
}

/**
 * The style of a print made only to measure: every element of the body hidden but the marker links (links to
 * `https://<what>.docrender.invalid/…`, whose annotations tell where things landed). `visibility` changes no box, so
 * the pages break where they break in the real print, and Chromium still writes the named destination of every
 * linked id (page references read their anchors' pages there, verified with Chromium 156); what is hidden is not
 * painted, so its text, images and backgrounds are neither drawn nor written into the PDF. examples/catalogue's
 * measuring print at 6,000 products: 4.4–4.9 s where the print of everything took 6.8–6.9 s (decision 0052).
 */
const MEASURING_PRINT = 'body *{visibility:hidden!important}a[href*=".docrender.invalid/"]{visibility:visible!important}';

/** Minimizes the page's window; returns it and the state it had, or null where the browser has no windows. */
async function minimize(devTools: CDPSession): Promise<{ id: number; state: WindowState } | null> {
  const window = await devTools.send('Browser.getWindowForTarget').catch(() => null);
  if (window === null || window.bounds.windowState === 'minimized') return null;
  await devTools.send('Browser.setWindowBounds', { windowId: window.windowId, bounds: { windowState: 'minimized' } });
  return { id: window.windowId, state: window.bounds.windowState ?? 'normal' };
}

// The functions below run in the page (through the DevTools protocol, whatever the document's JavaScript setting).

/**
 * Runs in the page: the page box from the `@page` rule with the page size and margins (a page background is another
 * `@page` rule), converted to CSS pixels with the CSS Typed OM (absolute lengths: nothing is laid out for it).
 */
export function pageBox(): PageBox {
  let pageRule: CSSPageRule | null = null;
  for (const sheet of Array.from(document.styleSheets)) {
    for (const rule of Array.from(sheet.cssRules)) if (rule instanceof CSSPageRule && rule.selectorText === '' && rule.style.getPropertyValue('size') !== '') pageRule = rule;
  }
  if (pageRule === null) throw new Error('the document has no @page rule');
  const pageStyle = pageRule.style;
  const px = (length: string): number => (length === '' ? 0 : CSSNumericValue.parse(length).to('px').value);
  const [width, height] = pageStyle.getPropertyValue('size').trim().split(/\s+/).map(px);
  const margin = (side: string): number => px(pageStyle.getPropertyValue(`margin-${side}`));
  return { height, top: margin('top'), bottom: margin('bottom'), contentWidth: width - margin('left') - margin('right') };
}

/** Runs in the page: the root given a style of its own (PrintLayout), or its own style again (null). */
function styleRoot(css: string | null): void {
  const id = 'docrender-print-layout';
  document.getElementById(id)?.remove();
  if (css === null) return;
  const style = document.createElement('style');
  style.id = id;
  style.textContent = css;
  document.head.appendChild(style);
}
