import type { CDPSession } from 'puppeteer-core';
import { PDFDocument } from '@cantoo/pdf-lib';
import { PLACED_ATTRIBUTE } from '@docrender/template-dsl';
import { evaluateInPage } from './in-page';
import { markerLinks, printedMarkerLinks } from './marker-links';
import type { MeasuringPrint } from './page-aware-tables';

/** The host of the placed elements' marker links (a batch print's pages have them removed: printBatchOnPage). */
export const PLACED_MARKER_HOST = 'placed.docrender.invalid';

/**
 * Placed elements (the DSL's `position`) whose height only printing tells (CompiledDocument.placedToMeasure): a
 * 1 px link at the bottom of each is printed once (a PDF link annotation knows its page), and an element whose
 * bottom is not on the first page reaches below its content area, so Chromium added a page for it. The links are
 * removed before the real print. Returns the ids of those elements, each once, and the measuring print (the
 * markers take no room, so it is laid out as the real print will be, and can count its pages).
 */
export async function placedBeyondFirstPage(devTools: CDPSession, measure: MeasuringPrint): Promise<{ elementIds: string[]; printed: Buffer }> {
  await evaluate(devTools, `(${addMarkers.toString()})(${JSON.stringify(PLACED_ATTRIBUTE)}, ${JSON.stringify(PLACED_MARKER_HOST)}, false)`);
  const printed = await measure();
  await evaluate(devTools, `(${removeMarkers.toString()})()`);
  const { links } = await printedMarkerLinks(printed, PLACED_MARKER_HOST);
  const beyond = links.filter((link) => link.page > 1).map((link) => decodeURIComponent(link.key));
  return { elementIds: [...new Set(beyond)], printed };
}

/**
 * In a batch print (printBatchOnPage: every document a child of the body that starts a new page): the same marker
 * links, keyed by document, put before the batch's one print, so that print measures every document's placed
 * elements at once. The links stay (they take no room and no ink); their annotations are removed from the pages.
 */
export async function markPlacedElementsInBatch(devTools: CDPSession): Promise<void> {
  await evaluate(devTools, `(${addMarkers.toString()})(${JSON.stringify(PLACED_ATTRIBUTE)}, ${JSON.stringify(PLACED_MARKER_HOST)}, true)`);
}

/**
 * The documents of a batch print (markPlacedElementsInBatch) with a placed element whose bottom is not on the
 * document's first page (`firstPages[i]`, 1-based): printed alone, such a document gets a page more and an issue.
 */
export function documentsPlacedBeyondFirstPage(printed: PDFDocument, firstPages: number[]): number[] {
  const beyond = new Set<number>();
  for (const link of markerLinks(printed, PLACED_MARKER_HOST)) {
    const document = Number(link.key.slice(0, link.key.indexOf('/')));
    if (link.page !== firstPages[document]) beyond.add(document);
  }
  return [...beyond];
}

async function evaluate(devTools: CDPSession, expression: string): Promise<void> {
  await evaluateInPage(devTools, expression, 'measuring the placed elements');
}

// The functions below run in the page (through the DevTools protocol, whatever the document's JavaScript setting).

/**
 * A 1 px link at the bottom left corner of every marked placed element (its containing block): no room, no ink.
 * `perDocument` (a batch print): the link's key starts with the index of the body's child the element is in.
 */
function addMarkers(attribute: string, host: string, perDocument: boolean): void {
  const documents = Array.from(document.body.children);
  for (const element of Array.from(document.querySelectorAll(`[${attribute}]`))) {
    const link = document.createElement('a');
    link.className = 'docrender-placed-marker';
    const id = encodeURIComponent(element.getAttribute(attribute) ?? '');
    link.href = `https://${host}/${perDocument ? `${documents.findIndex((container) => container.contains(element))}/` : ''}${id}`;
    link.style.cssText = 'position:absolute;left:0;bottom:0;display:block;width:1px;height:1px';
    element.appendChild(link);
  }
}

function removeMarkers(): void {
  for (const link of Array.from(document.querySelectorAll('a.docrender-placed-marker'))) link.remove();
}
