import { RenderIssue, renderIssue, RenderIssueType } from '@docrender/contracts';
import { IssueCollector } from '../issues/issue-collector';

/**
 * Anchors and page references (docs/template-dsl.md "Anchors and page references", decision 0036). An element with
 * an `anchor` gets the HTML id anchorHtmlId(anchor); `{{ pageOf('…') }}` in text becomes a link to that id whose text
 * a printer replaces with the page the anchor lands on (class PAGE_REFERENCE_CLASS). Chromium writes such a link as
 * a PDF link annotation to a named destination on the anchor's page.
 */

/** The class of a page reference's link (`<a class="pr" href="#…">`). */
export const PAGE_REFERENCE_CLASS = 'pr';

/** What a page reference shows until a printer fills in the page, and for an anchor no element has. */
export const UNRESOLVED_PAGE = '?';

/** Longest anchor, in characters, after its bindings are evaluated. */
export const MAX_ANCHOR_LENGTH = 200;

/** The HTML id of an anchor: its UTF-8 bytes in hex behind a prefix, so any text is a valid id and fragment. */
export function anchorHtmlId(anchor: string): string {
  return `docrender-a-${Buffer.from(anchor, 'utf8').toString('hex')}`;
}

/** The anchor of an HTML id made by anchorHtmlId, or null for another id. */
export function anchorOfHtmlId(id: string): string | null {
  const hex = /^docrender-a-((?:[0-9a-f]{2})+)$/.exec(id)?.[1];
  return hex === undefined ? null : Buffer.from(hex, 'hex').toString('utf8');
}

/** What a printer reports for an anchor whose page it did not find in the print: its references show UNRESOLVED_PAGE. */
export function anchorNotPrintedIssue(anchor: string): RenderIssue {
  return renderIssue(
    RenderIssueType.RenderLayoutDegraded,
    `The page of the anchor "${anchor.slice(0, 80)}" was not found in the print (an element without a box?); its page references show "${UNRESOLVED_PAGE}".`,
    null,
  );
}

/** The markup of a page reference to `anchor` (filled in by the printer). */
export function pageReferenceHtml(anchor: string): string {
  return `<a class="${PAGE_REFERENCE_CLASS}" href="#${anchorHtmlId(anchor)}">${UNRESOLVED_PAGE}</a>`;
}

const REFERENCE_MARKUP = /<a class="pr" href="#(docrender-a-[0-9a-f]*)">\?<\/a>/g;

/** The anchors and page references a document draws. */
export class PageReferences {
  /** Anchor → the id of the element that carries it (the first, when several do). */
  private readonly anchors = new Map<string, string>();
  /** Page references drawn: the anchor each names, the element showing it, the binding's text. */
  private readonly references: { anchor: string; elementId: string | null; source: string }[] = [];

  /** Records an anchor; false (after the issue naming the element) when another element already has it. */
  addAnchor(anchor: string, elementId: string, issues: IssueCollector): boolean {
    const first = this.anchors.get(anchor);
    if (first === undefined) {
      this.anchors.set(anchor, elementId);
      return true;
    }
    issues.add(
      RenderIssueType.BindingFailedAtRender,
      `The anchor "${anchor.slice(0, 80)}" is already the anchor of ${first === elementId ? 'another instance of this element' : `element "${first}"`}; it is left off here, and its page references go to the first.`,
      elementId,
      `anchor\u0000${anchor}`,
    );
    return false;
  }

  addReference(anchor: string, elementId: string | null, source: string): string {
    this.references.push({ anchor, elementId, source });
    return pageReferenceHtml(anchor);
  }

  /**
   * Reports every page reference to an anchor no element drew (MissingBinding, naming the element that shows it) and
   * returns `html` with those references as plain UNRESOLVED_PAGE, without a link; `resolvable` tells whether any
   * reference is left for the printer to fill in.
   */
  settle(html: string, issues: IssueCollector): { html: string; resolvable: boolean } {
    const unknown = new Set<string>();
    for (const { anchor, elementId, source } of this.references) {
      if (this.anchors.has(anchor)) continue;
      unknown.add(anchorHtmlId(anchor));
      issues.add(
        RenderIssueType.MissingBinding,
        `"{{ ${source} }}": no element of the document has the anchor "${anchor.slice(0, 80)}"; the page reference shows "${UNRESOLVED_PAGE}".`,
        elementId,
        `pageOf\u0000${anchor}`,
      );
    }
    const resolvable = this.references.some(({ anchor }) => this.anchors.has(anchor));
    if (unknown.size === 0) return { html, resolvable };
    return { html: html.replace(REFERENCE_MARKUP, (markup, id: string) => (unknown.has(id) ? UNRESOLVED_PAGE : markup)), resolvable };
  }
}
