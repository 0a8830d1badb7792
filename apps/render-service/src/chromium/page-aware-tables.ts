import type { CDPSession } from 'puppeteer';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';

/** Prints the loaded document as it stands (no bands, untagged) and returns the PDF. */
export type MeasuringPrint = () => Promise<Buffer>;

const MARKER_HOST = 'row.docrender.invalid';

/**
 * Tables with lines at page breaks (the DSL's `pageBreaks`: "continued" lines, carried and brought-forward subtotals):
 * the compiled HTML holds, after every row, the rows that would follow it at a page break, hidden. Where Chromium
 * breaks the table is only known from printing, so the document is printed with an invisible link in every row (a
 * PDF link annotation knows its page), the first break found is made explicit — the carried rows shown after the
 * last row of the page, the brought-forward rows before the next one with a forced page break — and the document is
 * printed again to check that the carried rows still fit on their page (else the break moves one row up) and to find
 * the next break. The links are removed before the real print. Costs one measuring print per break, plus one per
 * break that moves (docs/decisions/0011-page-roles.md has the figures).
 */
export async function placeTableBreakRows(devTools: CDPSession, measure: MeasuringPrint): Promise<number> {
  await evaluate(devTools, `(${addMarkers.toString()})(${JSON.stringify(MARKER_HOST)})`);
  const placed = new Set<string>();
  let checking: string | null = null;
  let prints = 0;
  // every break is placed or moved at most (rows) times; the bound only guards against a layout that never settles
  for (let round = 0; round < 500; round++) {
    const pages = await markerPages(await measure());
    prints++;
    if (checking !== null) {
      const [table, row]: number[] = checking.split(':').map(Number);
      if (pages.has(`c:${checking}`) && pages.get(`c:${checking}`) !== pages.get(`r:${checking}`) && row > 0) {
        // the carried rows did not fit under the last row of the page: the break moves one row up
        const earlier: string = `${table}:${row - 1}`;
        await evaluate(devTools, `(${showBreakRows.toString()})(${JSON.stringify(checking)}, false)`);
        await evaluate(devTools, `(${showBreakRows.toString()})(${JSON.stringify(earlier)}, true)`);
        placed.delete(checking);
        placed.add(earlier);
        checking = earlier;
        continue;
      }
      checking = null;
    }
    const next = firstUnplacedBreak(pages, placed);
    if (next === null) break;
    await evaluate(devTools, `(${showBreakRows.toString()})(${JSON.stringify(next)}, true)`);
    placed.add(next);
    checking = next;
  }
  await evaluate(devTools, `(${removeMarkers.toString()})()`);
  return prints;
}

/** The first row (in table and row order) followed by a row on a later page, with no break rows shown after it. */
function firstUnplacedBreak(pages: Map<string, number>, placed: Set<string>): string | null {
  const rows = [...pages.keys()]
    .filter((k) => k.startsWith('r:'))
    .map((k) => k.slice(2).split(':').map(Number) as [number, number])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let i = 0; i + 1 < rows.length; i++) {
    const [table, row] = rows[i];
    const [nextTable] = rows[i + 1];
    if (nextTable !== table) continue;
    const key = `${table}:${row}`;
    if (placed.has(key)) continue;
    if ((pages.get(`r:${table}:${rows[i + 1][1]}`) ?? 0) > (pages.get(`r:${key}`) ?? 0)) return key;
  }
  return null;
}

/** Marker key (`r:<table>:<row>` for a row, `c:<table>:<row>` for the shown carried rows after it) → page number, from link annotations. */
async function markerPages(pdf: Buffer): Promise<Map<string, number>> {
  const pages = new Map<string, number>();
  for (const { key, page } of await markerLinks(pdf, MARKER_HOST)) {
    // a row's first link (a row split over two pages has one on each); the carried rows' last one
    if (!pages.has(key) || key.startsWith('c:')) pages.set(key, page);
  }
  return pages;
}

/** The links to `https://<host>/<key>` in a printed PDF, in page order: each key with its page number (1-based). */
export async function markerLinks(pdf: Buffer, host: string): Promise<{ key: string; page: number }[]> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const prefix = `https://${host}/`;
  const links: { key: string; page: number }[] = [];
  document.getPages().forEach((page, index) => {
    const annotations = page.node.Annots();
    if (!annotations) return;
    for (let i = 0; i < annotations.size(); i++) {
      const action = annotations.lookupMaybe(i, PDFDict)?.lookupMaybe(PDFName.of('A'), PDFDict);
      const uri = action?.lookup(PDFName.of('URI'));
      const text = uri instanceof PDFString || uri instanceof PDFHexString ? uri.decodeText() : null;
      if (text?.startsWith(prefix)) links.push({ key: text.slice(prefix.length), page: index + 1 });
    }
  });
  return links;
}

/** Runs an expression in the page through DevTools; `what` names the work in the error when it throws. */
export async function evaluateInPage(devTools: CDPSession, expression: string, what: string): Promise<void> {
  const { exceptionDetails } = await devTools.send('Runtime.evaluate', { expression });
  if (exceptionDetails) throw new Error(`${what} failed: ${exceptionDetails.text}`);
}

async function evaluate(devTools: CDPSession, expression: string): Promise<void> {
  await evaluateInPage(devTools, expression, 'placing the rows at table page breaks');
}

// The functions below run in the page (through the DevTools protocol, whatever the document's JavaScript setting).

/** A 1 px link at the top of the first cell of every row and of every carried row: takes no room, prints no ink. */
function addMarkers(host: string): void {
  const mark = (row: Element, key: string): void => {
    const cell = row.firstElementChild;
    if (!cell) return;
    const link = document.createElement('a');
    link.className = 'docrender-marker';
    link.href = `https://${host}/${key}`;
    link.style.cssText = 'display:block;height:1px;margin-bottom:-1px';
    cell.insertBefore(link, cell.firstChild);
  };
  for (const row of Array.from(document.querySelectorAll('tr[data-r]'))) mark(row, `r:${row.getAttribute('data-r') ?? ''}`);
  for (const row of Array.from(document.querySelectorAll('tr.xc'))) mark(row, `c:${row.getAttribute('data-x') ?? ''}`);
}

/** Shows (or hides) the rows at the page break after row `key`: the first brought-forward row starts a page. */
function showBreakRows(key: string, show: boolean): void {
  const rows = Array.from(document.querySelectorAll(`tr[data-x="${key}"]`));
  rows.forEach((row) => row.classList.toggle('xon', show));
  const firstBrought = rows.find((row) => row.classList.contains('xb'));
  if (firstBrought) firstBrought.classList.toggle('xbrk', show);
}

function removeMarkers(): void {
  for (const link of Array.from(document.querySelectorAll('a.docrender-marker'))) link.remove();
}
