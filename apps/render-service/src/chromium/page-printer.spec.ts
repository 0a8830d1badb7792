import { laidOutForPrintOnly, refuseWhatCannotFinish } from './page-printer';
import { RenderBudgetEstimateError } from './render-timeout.error';

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

describe('issue 32 item 3: a render that cannot finish in its budget fails before its real print', () => {
  it('fails when less of the budget is left than the measuring print took, and says so; passes when as much is left', () => {
    const budget = { deadline: 100_000, budgetMs: 60_000 };
    expect(() => refuseWhatCannotFinish(20_000, budget, 80_000)).not.toThrow();
    expect(() => refuseWhatCannotFinish(20_001, budget, 80_000)).toThrow(RenderBudgetEstimateError);
    expect(() => refuseWhatCannotFinish(25_000, budget, 81_000)).toThrow(
      'the document cannot be printed within its render budget of 60000 ms: printing it to measure it took 25.0 s, the real print takes at least as long, and 19.0 s of the budget were left',
    );
  });
});
