import { laidOutForPrintOnly } from './page-printer';

const RULE = '<style>@media screen{:root{display:none!important}}</style>';

describe('laidOutForPrintOnly: the rule that keeps a printed document off the screen', () => {
  it('goes at the end of the head, the document otherwise unchanged', () => {
    const html = '<!DOCTYPE html>\n<html lang="de"><head><meta charset="utf-8"><style>p{color:red}</style></head><body><p>Rechnung</p></body></html>';
    expect(laidOutForPrintOnly(html)).toBe(
      `<!DOCTYPE html>\n<html lang="de"><head><meta charset="utf-8"><style>p{color:red}</style>${RULE}</head><body><p>Rechnung</p></body></html>`,
    );
  });

  it('finds a closing head tag in any case and with spaces', () => {
    expect(laidOutForPrintOnly('<html><HEAD></HEAD ><body>x</body></html>')).toBe(`<html><HEAD>${RULE}</HEAD ><body>x</body></html>`);
  });

  it('goes before the first closing head tag, past other closing tags and before a later one in another case', () => {
    expect(laidOutForPrintOnly('<html><head><title>a</title><style>b</style></Head\n><body><p>x</p></head></body></html>')).toBe(
      `<html><head><title>a</title><style>b</style>${RULE}</Head\n><body><p>x</p></head></body></html>`,
    );
  });

  it('goes right after the doctype of a document without a head, so the document stays in standards mode', () => {
    expect(laidOutForPrintOnly('  <!doctype html><p>Render B</p>')).toBe(`  <!doctype html>${RULE}<p>Render B</p>`);
  });

  it('goes first in a fragment with neither', () => {
    expect(laidOutForPrintOnly('<p>fragment</p>')).toBe(`${RULE}<p>fragment</p>`);
  });
});
