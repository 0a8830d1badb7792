import type { CDPSession } from 'puppeteer-core';
import { anchorOfHtmlId, PAGE_REFERENCE_CLASS, UNRESOLVED_PAGE } from '@docrender/template-dsl';
import { evaluateInPage, valueInPage } from './in-page';
import type { MeasuringPrint } from './page-aware-tables';
import { type PageBox, pageBox, type PrintLayout } from './print-layout';
import { namedDestinations } from '../pdf/named-destinations';

/** Rounds of filling in the pages and printing again before giving up; a reference whose digits move nothing needs one. */
const MAX_ROUNDS = 4;
const RESOLVING = 'resolving the page references';

export type PageReferencesResolved = {
  /** Prints made only to find the pages (besides the one handed in). */
  measuringPrints: number;
  /** The print the pages were read from: laid out as the real print will be. */
  printed: Buffer;
  /** Anchors whose page the print did not tell (their references show UNRESOLVED_PAGE). */
  notPrinted: string[];
};

/**
 * Before the first measuring print: every page reference shows as many digits as the document is estimated to have
 * pages (its height laid out for print over a page's content height), so the print is laid out with numbers of about
 * the width they will have. Leaves `layout` entered.
 */
export async function showPlaceholderPages(devTools: CDPSession, layout: PrintLayout): Promise<void> {
  await layout.enter();
  await evaluateInPage(devTools, SHOW_PLACEHOLDER_PAGES, RESOLVING);
}

/**
 * The in-page expression of showPlaceholderPages, for a page laid out for print (PrintLayout entered): run there, the
 * layout that counts the pages is the one that follows (page-aware tables' measures).
 */
export const SHOW_PLACEHOLDER_PAGES = `(${placeholders.toString()})(${JSON.stringify(PAGE_REFERENCE_CLASS)}, (${pageBox.toString()})())`;

/**
 * Page references (CompiledDocument.pageReferences, docs/decisions/0036): Chromium writes each reference, a link to
 * its anchor's HTML id, as a link annotation to a named destination on the page where the anchor lands, so a print
 * tells every anchor's page. `printed` is the document's last measuring print when one was made (page-aware tables,
 * placed elements: it is laid out as the real print), else one is made. The pages are written into the references;
 * when that changes the layout (a number of other digits that wraps a line or widens a column: the boxes around every
 * reference are compared before and after, laid out for print), the document is printed again to read the pages anew
 * — `replace`, when given, makes that print (page-aware tables placed anew) — at most MAX_ROUNDS times. The pages are
 * filled in in `layout`, the caller's (PrintLayout), left entered.
 */
export async function resolvePageReferences(
  devTools: CDPSession,
  printed: Buffer | null,
  measure: MeasuringPrint,
  layout: PrintLayout,
  replace: (() => Promise<{ measuringPrints: number; printed: Buffer }>) | null = null,
): Promise<PageReferencesResolved> {
  let measuringPrints = 0;
  let last = printed;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (last === null) {
      if (replace !== null && round > 0) {
        const placed = await replace();
        measuringPrints += placed.measuringPrints;
        last = placed.printed;
      } else {
        await layout.beforePrint();
        last = await measure();
        measuringPrints++;
      }
    }
    const pages = Object.fromEntries(Array.from(await namedDestinations(last), ([name, { page }]) => [name, page]));
    await layout.enter();
    const filled = await valueInPage<{ missing: string[]; moved: boolean }>(
      devTools,
      `(${fillPages.toString()})(${JSON.stringify(PAGE_REFERENCE_CLASS)}, ${JSON.stringify(pages)}, ${JSON.stringify(UNRESOLVED_PAGE)})`,
      RESOLVING,
    );
    if (!filled.moved) {
      const notPrinted = filled.missing.map((id) => anchorOfHtmlId(id) ?? id);
      return { measuringPrints, printed: last, notPrinted };
    }
    last = null;
  }
  throw new Error(`resolving the page references failed: the pages did not settle in ${MAX_ROUNDS} prints`);
}

// The functions below run in the page (through the DevTools protocol, whatever the document's JavaScript setting).

/** Every page reference shows as many zeros as the document, laid out for print (PrintLayout), has pages. */
function placeholders(cls: string, box: PageBox): void {
  const pages = Math.max(1, Math.ceil(document.documentElement.getBoundingClientRect().height / Math.max(1, box.height - box.top - box.bottom)));
  const text = '0'.repeat(String(pages).length);
  for (const link of Array.from(document.querySelectorAll(`a.${cls}`))) link.textContent = text;
}

/**
 * Writes each reference's page (`pages`: HTML id → page; `unresolved` for an id the print did not have) and tells
 * whether the layout moved: the boxes of every block around a reference and of their children, laid out for print
 * (PrintLayout), before and after. When none moved, nothing else did (the rest of the document is laid out from
 * those boxes), so the pages stay where the print found them.
 */
function fillPages(cls: string, pages: Record<string, number>, unresolved: string): { missing: string[]; moved: boolean } {
  const links = Array.from(document.querySelectorAll<HTMLAnchorElement>(`a.${cls}`));
  const watched = new Set<Element>();
  const around = new Set<Element>();
  const blockish = (element: Element): boolean => !getComputedStyle(element).display.startsWith('inline');
  for (const link of links) {
    for (let element = link.parentElement; element !== null && element !== document.documentElement; element = element.parentElement) {
      if (around.has(element)) break;
      around.add(element);
      if (!blockish(element)) continue;
      watched.add(element);
      for (const child of Array.from(element.children)) if (blockish(child)) watched.add(child);
    }
  }
  const elements = Array.from(watched);
  const boxes = (): number[] => {
    const origin = document.documentElement.getBoundingClientRect();
    return elements.flatMap((element) => {
      const rect = element.getBoundingClientRect();
      return [rect.top - origin.top, rect.left - origin.left, rect.width, rect.height];
    });
  };
  const before = boxes();
  const missing = new Set<string>();
  for (const link of links) {
    const id = (link.getAttribute('href') ?? '').slice(1);
    const page = pages[id];
    if (page === undefined) missing.add(id);
    link.textContent = page === undefined ? unresolved : String(page);
  }
  const after = boxes();
  return { missing: [...missing], moved: before.some((value, i) => Math.abs(value - after[i]) > 0.01) };
}
