import type { CDPSession } from 'puppeteer-core';
import { type ClassicLinks, classicLinks, withoutClassicLinks } from '../pdf/classic-links';
import { valueInPage } from './in-page';
import { loadPdf, savePdf } from '../pdf/paced-pdf';
import { pdfTextString } from '../pdf/pdf-metadata';
import type { UpdatedObject } from '../pdf/pdf-xref';

/**
 * A PDF outline (bookmarks) from the document's headings, written by the service into an untagged print. Chromium
 * writes an outline only from a structure tree, so a print with one is tagged, and a tagged print costs two to three
 * times an untagged one (decision 0051). Each heading (`h1`–`h6`, the DSL's `heading` and rich text headings)
 * gets a marker link (marker-links.ts) that takes no room, so the print tells its page and top; the outline is then
 * written into the PDF in an incremental update that also takes the markers out, nested by level as Chromium nests
 * them.
 */

/** The host of the links that mark headings for the outline (taken out of the printed PDF). */
export const HEADING_MARKER_HOST = 'heading.docrender.invalid';

/** A heading marked in the page: its level (1–6) and its text, one line. Its marker's key is its index. */
export type MarkedHeading = { level: number; title: string };

/** A heading marked in a batch's page: also the document it is in (its block's index among the body's children). */
export type BatchHeading = MarkedHeading & { document: number };

/**
 * Puts a marker link at the top of every heading of the loaded document (before any print, so every print is laid out
 * with them) and returns the headings in document order; in a batch's document (`batch`), with the document each is in.
 */
export async function markHeadings(devTools: CDPSession, batch = false): Promise<BatchHeading[]> {
  const expression = `(${markInPage.toString()})(${JSON.stringify(HEADING_MARKER_HOST)}, ${batch})`;
  return valueInPage<BatchHeading[]>(devTools, expression, 'marking the headings for the outline');
}

/**
 * `printed` with the outline of `headings` (by marker key; absent: not this document's) and without their marker
 * links. Headings whose marker the print does not hold (not displayed) have no entry. A print whose layout
 * classicLinks does not read is written anew by pdf-lib with classic cross-reference tables first.
 */
export async function withDocumentOutline(printed: Buffer, headings: readonly (MarkedHeading | undefined)[]): Promise<Buffer> {
  let pdf = printed;
  let read = classicLinks(pdf);
  if (read === null) {
    pdf = await savePdf(await loadPdf(printed));
    read = classicLinks(pdf);
    if (read === null) throw new Error('writing the outline failed: the print could not be read');
  }
  const prefix = `https://${HEADING_MARKER_HOST}/`;
  const markers = read.links.filter((link) => link.uri.startsWith(prefix));
  const entries = markers
    .map((link) => ({ index: Number(link.uri.slice(prefix.length)), page: read.pages[link.page - 1].object, top: link.rect[3] }))
    .flatMap(({ index, page, top }) => {
      const heading = headings[index];
      return heading === undefined ? [] : [{ index, level: heading.level, title: heading.title, destination: `[${page} ${read.generations.get(page) ?? 0} R /XYZ 0 ${round(top)} 0]` }];
    })
    .sort((a, b) => a.index - b.index);
  return withoutClassicLinks(pdf, read, new Set(markers.map((link) => link.object)), entries.length === 0 ? [] : outlineObjects(read, entries));
}

/** One outline entry: its heading's level and title, and its destination as written (`[page /XYZ left top zoom]`). */
type OutlineEntry = MarkedHeading & { destination: string };

/**
 * The objects of an outline of `entries` (in document order): its root, one item per entry, each a child of the
 * nearest entry before it of a lower level (ISO 32000-1 12.3.3), every item open, and the catalog written anew
 * with /Outlines. New objects are numbered from the trailer's /Size.
 */
function outlineObjects(read: Pick<ClassicLinks, 'trailer' | 'catalog'>, entries: readonly OutlineEntry[]): UpdatedObject[] {
  const root = read.trailer.size;
  type Node = { number: number; parent: number; children: Node[]; entry: OutlineEntry | null };
  const top: Node = { number: root, parent: 0, children: [], entry: null };
  const stack: Node[] = [];
  entries.forEach((entry, i) => {
    while (stack.length > 0 && (stack[stack.length - 1].entry as OutlineEntry).level >= entry.level) stack.pop();
    const parent = stack[stack.length - 1] ?? top;
    const node: Node = { number: root + 1 + i, parent: parent.number, children: [], entry };
    parent.children.push(node);
    stack.push(node);
  });
  const descendants = (node: Node): number => node.children.reduce((count, child) => count + 1 + descendants(child), 0);
  const objects: UpdatedObject[] = [];
  const write = (node: Node, siblings: Node[], at: number): void => {
    const fields: string[] = [];
    if (node.entry === null) fields.push('/Type /Outlines');
    else fields.push(`/Title ${pdfTextString(node.entry.title)}`, `/Parent ${node.parent} 0 R`, `/Dest ${node.entry.destination}`);
    if (at > 0) fields.push(`/Prev ${siblings[at - 1].number} 0 R`);
    if (node.entry !== null && at < siblings.length - 1) fields.push(`/Next ${siblings[at + 1].number} 0 R`);
    if (node.children.length > 0) {
      fields.push(`/First ${node.children[0].number} 0 R`, `/Last ${node.children[node.children.length - 1].number} 0 R`, `/Count ${descendants(node)}`);
    }
    objects.push({ number: node.number, body: `<<${fields.join('\n')}>>` });
    node.children.forEach((child, i) => write(child, node.children, i));
  };
  write(top, [top], 0);
  const catalog = read.catalog.replace(/^\d+\s+\d+\s+obj\s*/, '').replace(/\/Outlines\s+\d+\s+\d+\s+R/, '').trimEnd();
  objects.push({ number: read.trailer.rootObject, body: `${catalog.slice(0, catalog.lastIndexOf('>>'))}\n/Outlines ${root} 0 R>>` });
  return objects;
}

/** A coordinate as Chromium writes them: at most 5 decimals, no exponent. */
function round(value: number): string {
  return String(Math.round(value * 1e5) / 1e5);
}

// Runs in the page (through the DevTools protocol, whatever the document's JavaScript setting).

/**
 * Runs in the page: a marker link to `https://<host>/<index>` at the top of each heading, as a block 1 px high with a
 * margin of -1 px below (it takes no room), out of the accessibility tree; returns each heading's level and text, and
 * in a batch (`batch`: every document a block of the body) its document.
 */
function markInPage(host: string, batch: boolean): BatchHeading[] {
  const headings: BatchHeading[] = [];
  const documents = Array.from(document.body.children);
  for (const heading of Array.from(document.body.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const title = (heading.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (title === '') continue;
    const link = document.createElement('a');
    link.className = 'docrender-heading-marker';
    link.setAttribute('aria-hidden', 'true');
    link.href = `https://${host}/${headings.length}`;
    link.style.cssText = 'display:block;height:1px;margin-bottom:-1px';
    heading.insertBefore(link, heading.firstChild);
    headings.push({ level: Number(heading.tagName.slice(1)), title, document: batch ? documents.findIndex((block) => block.contains(heading)) : 0 });
  }
  return headings;
}
