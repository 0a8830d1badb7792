import type { Template } from '@docrender/template-dsl';

/**
 * Issue 20's page roles on A5: a first-page letterhead and a continuation header, a footer with `pageOfText` (a
 * "Page n of m" line) and a line shown from page 2 (`pageNumber > 1`), an even-page footer, a first-page watermark and
 * another one for every page.
 */
export function pageRolesPage(pageOfText: string): Template['page'] {
  return {
    size: 'A5',
    margins: { top: '25mm', right: '15mm', bottom: '20mm', left: '15mm' },
    header: {
      elements: [{ type: 'text', id: 'continuation', text: 'Continuation header {{ company }}' }],
      first: { elements: [{ type: 'text', id: 'letterhead', text: 'LETTERHEAD {{ company }}', style: { fontSize: 14, fontWeight: 700 } }] },
    },
    footer: {
      elements: [
        { type: 'text', id: 'page-of', text: pageOfText, style: { fontSize: 8 } },
        { type: 'text', id: 'from-two', visibleIf: 'pageNumber > 1', text: 'Follow-on page', style: { fontSize: 8 } },
      ],
      even: { elements: [{ type: 'text', id: 'even-footer', text: 'Even page footer {{ pageNumber }}', style: { fontSize: 8 } }] },
    },
    watermark: [
      { text: 'DRAFT', pages: 'first', angle: 30, opacity: 0.2, color: '#0000aa' },
      { text: 'COPY', pages: 'all' },
    ],
  };
}
