import type { CDPSession } from 'puppeteer';
import { PLACED_ATTRIBUTE } from '@docrender/template-dsl';
import { evaluateInPage, markerLinks, MeasuringPrint } from './page-aware-tables';

const MARKER_HOST = 'placed.docrender.invalid';

/**
 * Placed elements (the DSL's `position`) whose height only printing tells (CompiledDocument.placedToMeasure): a
 * 1 px link at the bottom of each is printed once (a PDF link annotation knows its page), and an element whose
 * bottom is not on the first page reaches below its content area, so Chromium added a page for it. The links are
 * removed before the real print. Returns the ids of those elements, each once, and the measuring print (the
 * markers take no room, so it is laid out as the real print will be, and can count its pages).
 */
export async function placedBeyondFirstPage(devTools: CDPSession, measure: MeasuringPrint): Promise<{ elementIds: string[]; printed: Buffer }> {
  await evaluate(devTools, `(${addMarkers.toString()})(${JSON.stringify(PLACED_ATTRIBUTE)}, ${JSON.stringify(MARKER_HOST)})`);
  const printed = await measure();
  await evaluate(devTools, `(${removeMarkers.toString()})()`);
  const beyond = (await markerLinks(printed, MARKER_HOST)).filter((link) => link.page > 1).map((link) => decodeURIComponent(link.key));
  return { elementIds: [...new Set(beyond)], printed };
}

async function evaluate(devTools: CDPSession, expression: string): Promise<void> {
  await evaluateInPage(devTools, expression, 'measuring the placed elements');
}

// The functions below run in the page (through the DevTools protocol, whatever the document's JavaScript setting).

/** A 1 px link at the bottom left corner of every marked placed element (its containing block): no room, no ink. */
function addMarkers(attribute: string, host: string): void {
  for (const element of Array.from(document.querySelectorAll(`[${attribute}]`))) {
    const link = document.createElement('a');
    link.className = 'docrender-placed-marker';
    link.href = `https://${host}/${encodeURIComponent(element.getAttribute(attribute) ?? '')}`;
    link.style.cssText = 'position:absolute;left:0;bottom:0;display:block;width:1px;height:1px';
    element.appendChild(link);
  }
}

function removeMarkers(): void {
  for (const link of Array.from(document.querySelectorAll('a.docrender-placed-marker'))) link.remove();
}
