import { batchPrintKey, TAGGED_SHARE_MAX_ELEMENTS, TAGGED_SHARE_MAX_ELEMENTS_PAGE_AWARE } from './batch-page-printer';

/** A document as the template DSL writes it: one head (shared by a batch's documents but for the title) and one body. */
const html = (title: string, body: string, head = '<style>@page{size:A4;margin:20mm}</style>'): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>\n`;
const document = (overrides: Partial<Parameters<typeof batchPrintKey>[0]> = {}): Parameters<typeof batchPrintKey>[0] => ({
  html: html('Invoice 1', '<p>one</p>'),
  tagged: false,
  javaScript: false,
  pageAwareTables: false,
  placedToMeasure: false,
  ...overrides,
});

describe('batchPrintKey: which documents may share a print (decision 0015, issue 32 item 7)', () => {
  it('documents of one head share a key whatever their titles and bodies; another head, or pages that differ, another key', () => {
    const key = batchPrintKey(document());
    expect(key).not.toBeNull();
    expect(batchPrintKey(document({ html: html('Invoice 2', '<table><tr><td>two</td></tr></table>') }))).toBe(key);
    expect(batchPrintKey(document({ html: html('Invoice 1', '<p>one</p>', '<style>@page{size:A5}</style>') }))).not.toBe(key);
    expect(batchPrintKey(document({ pageVariant: () => null }))).not.toBe(key);
  });

  it('documents whose watermarks differ by their data (a PAID or OPEN stamp) get keys of their own instead of refusing each other\'s prints', () => {
    const paid = batchPrintKey(document({ fixedMarkup: '<div class="uw0" aria-hidden="true">PAID</div>' }));
    expect(paid).not.toBeNull();
    expect(batchPrintKey(document({ html: html('Invoice 2', '<p>two</p>'), fixedMarkup: '<div class="uw0" aria-hidden="true">PAID</div>' }))).toBe(paid);
    expect(batchPrintKey(document({ fixedMarkup: '<div class="uw0" aria-hidden="true">OPEN</div>' }))).not.toBe(paid);
    expect(batchPrintKey(document({ fixedMarkup: '' }))).not.toBe(paid);
  });

  it('tagged documents share a tagged print, never an untagged one', () => {
    const tagged = batchPrintKey(document({ tagged: true }));
    expect(tagged).not.toBeNull();
    expect(tagged).toBe(batchPrintKey(document({ tagged: true, html: html('Invoice 2', '<p>two</p>') })));
    expect(tagged).not.toBe(batchPrintKey(document()));
  });

  it(`a tagged document shares a print only with at most ${TAGGED_SHARE_MAX_ELEMENTS} elements in its body (splitting a larger one's structure tree costs more than its print); untagged ones whatever their size`, () => {
    const rows = (count: number): string => `<table>${'<tr><td>1</td></tr>'.repeat(count)}</table>`;
    // a row is 2 elements, the table 1
    const most = Math.floor((TAGGED_SHARE_MAX_ELEMENTS - 1) / 2);
    const small = rows(most);
    const large = rows(most + 1);
    expect(batchPrintKey(document({ tagged: true, html: html('Report', small) }))).not.toBeNull();
    expect(batchPrintKey(document({ tagged: true, html: html('Report', large) }))).toBeNull();
    expect(batchPrintKey(document({ html: html('Report', large) }))).not.toBeNull();
    // end tags, comments and escaped text are not elements
    expect(batchPrintKey(document({ tagged: true, html: html('Report', `${small}<!-- x -->${'&lt;p&gt;'.repeat(50)}</p></p>`) }))).not.toBeNull();
  });

  it(`a tagged document with page-aware tables (alone: its rows measured, then printed) shares with at most ${TAGGED_SHARE_MAX_ELEMENTS_PAGE_AWARE} elements`, () => {
    const rows = (count: number): string => `<table>${'<tr><td>1</td></tr>'.repeat(count)}</table>`;
    const most = Math.floor((TAGGED_SHARE_MAX_ELEMENTS_PAGE_AWARE - 1) / 2);
    expect(batchPrintKey(document({ tagged: true, pageAwareTables: true, html: html('Statement', rows(most)) }))).not.toBeNull();
    expect(batchPrintKey(document({ tagged: true, pageAwareTables: true, html: html('Statement', rows(most + 1)) }))).toBeNull();
    // without page-aware tables the lower cap holds
    expect(batchPrintKey(document({ tagged: true, html: html('Statement', rows(most)) }))).toBeNull();
  });

  it('printed alone: JavaScript, page references, a tagged document\'s outline (Chromium writes one for the whole print), tagged with pages that differ (alone it is put together untagged), first/left/right/blank page rules, HTML not of the DSL', () => {
    expect(batchPrintKey(document({ javaScript: true }))).toBeNull();
    expect(batchPrintKey(document({ pageReferences: true }))).toBeNull();
    expect(batchPrintKey(document({ tagged: true, outline: true }))).toBeNull();
    expect(batchPrintKey(document({ tagged: true, pageVariant: () => null }))).toBeNull();
    expect(batchPrintKey(document({ html: html('Invoice 1', '<p>one</p>', '<style>@page :first{margin-top:40mm}</style>') }))).toBeNull();
    expect(batchPrintKey(document({ html: '<p>no head</p>' }))).toBeNull();
  });

  it('placed elements to measure and tables with lines at page breaks share', () => {
    expect(batchPrintKey(document({ placedToMeasure: true, pageAwareTables: true }))).toBe(batchPrintKey(document()));
  });

  it('an untagged document with an outline shares, with documents that have one only (each PDF gets its own: decision 0051)', () => {
    const outlined = batchPrintKey(document({ outline: true }));
    expect(outlined).not.toBeNull();
    expect(outlined).not.toBe(batchPrintKey(document()));
  });
});
