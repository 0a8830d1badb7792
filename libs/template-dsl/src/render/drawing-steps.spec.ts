import { RenderIssueType } from '@docrender/contracts';
import { DOCUMENT_STEP_BUDGET } from '../expression/expression-evaluator';
import { Template } from '../model/template.types';
import { compileDocument } from './compile-document';
import { DRAWING_STEPS } from './element-renderer';

// Issue 31 item 2: every cost counted and capped early. Drawing charges the document's step budget like its
// expressions do, so data without a single expression to evaluate cannot make a document draw without end (before
// this, a repeater over 3,000,000 bare rows compiled for 13.6 s into 120 MB of HTML, with no issue).

const count = (html: string, needle: string): number => html.split(needle).length - 1;
/** Steps checking `{ rows }` costs first (decision 0041): a step per value, the key `rows` and each row and its keys. */
const CHECKED_BARE_ROWS = 1 + 1_000_000;
const LEFT = DOCUMENT_STEP_BUDGET - CHECKED_BARE_ROWS;
const stopped = (elementId: unknown) =>
  expect.objectContaining({ type: RenderIssueType.BindingFailedAtRender, elementId, description: expect.stringMatching(/^Expressions stopped: the document's expressions and drawing took more than 5,000,000/) });

describe('issue 31 item 2: drawing elements and rows charges the step budget', () => {
  it('a repeater over a million bare rows stops drawing when the budget is spent, with one issue naming it; the document is bounded', () => {
    const template: Template = { dsl: 1, name: 'Bare rows', body: [{ type: 'repeater', id: 'rows', source: 'rows', elements: [{ type: 'text', id: 'cell', text: 'x' }] }] };
    const doc = compileDocument({ template, data: { rows: new Array(1_000_000).fill(0) } });
    // an item and its one element cost 2 × DRAWING_STEPS
    const drawn = count(doc.html, '>x</p>');
    expect(drawn).toBeLessThanOrEqual(LEFT / (2 * DRAWING_STEPS));
    expect(drawn).toBeGreaterThan(LEFT / (2 * DRAWING_STEPS) - 10);
    expect(doc.issues).toEqual([stopped(expect.stringMatching(/^(rows|cell)$/))]);
  });

  it('a table stops at the row that spends the budget (a row costs DRAWING_STEPS plus 1 a cell) and names the table', () => {
    const template: Template = {
      dsl: 1,
      name: 'Bare table',
      body: [{ type: 'table', id: 'lines', source: 'rows', columns: [{ id: 'a', header: 'A', value: 'a' }, { id: 'b', header: 'B', value: 'b' }] }],
    };
    const doc = compileDocument({ template, data: { rows: new Array(1_000_000).fill(0) } });
    const drawn = count(doc.html, '<tr') - 1; // the header row
    expect(drawn).toBeLessThanOrEqual(LEFT / (DRAWING_STEPS + 2));
    expect(drawn).toBeGreaterThan(LEFT / (DRAWING_STEPS + 2) - 10);
    expect(doc.issues).toEqual([stopped('lines')]);
  });

  it('once a condition has spent the budget, no more rows are drawn (each used to be drawn empty, linear in the data)', () => {
    const template: Template = {
      dsl: 1,
      name: 'Hidden rows',
      body: [{ type: 'repeater', id: 'rows', source: 'rows', elements: [{ type: 'text', id: 'cell', text: 'x', visibleIf: 'item.a < 0' }] }],
    };
    const rows = 1_000_000;
    const doc = compileDocument({ template, data: { rows: Array.from({ length: rows }, () => ({ a: 1 })) } });
    expect(count(doc.html, '<div')).toBeLessThan(DOCUMENT_STEP_BUDGET / (2 * DRAWING_STEPS));
    expect(doc.issues).toEqual([expect.objectContaining({ description: expect.stringMatching(/^Expressions stopped/) })]);
  });

  it('within the budget every row is drawn and nothing is reported', () => {
    const template: Template = { dsl: 1, name: 'Rows', body: [{ type: 'repeater', id: 'rows', source: 'rows', elements: [{ type: 'text', id: 'cell', text: '{{ item }}' }] }] };
    const doc = compileDocument({ template, data: { rows: Array.from({ length: 10_000 }, (_, i) => `r${i}.`) } });
    expect(count(doc.html, '.</nobr></p>')).toBe(10_000);
    expect(doc.issues).toEqual([]);
  });
});

describe('issue 31: checking the data charges the same step budget, before the check is done (decision 0041)', () => {
  const template: Template = { dsl: 1, name: 'Rows', body: [{ type: 'text', id: 'count', text: '{{ sum(rows) }}' }] };

  it('data of more values than the budget is stopped in its check: one RenderTimeout Error naming where, nothing drawn', () => {
    const doc = compileDocument({ template, data: { rows: new Array(DOCUMENT_STEP_BUDGET).fill(0) } });
    expect(doc.issues).toEqual([
      expect.objectContaining({ type: RenderIssueType.RenderTimeout, severity: 'Error', description: expect.stringMatching(/too large to check .* stopped at \$\.rows\. Split the data/) }),
    ]);
    expect(doc.html).not.toContain('<p');
  });

  it('what the check spent is not left to the expressions: a check of most of the budget leaves the rest', () => {
    // 4,000,000 rows checked, then sum() visits each again: past the 5,000,000 steps together, within them apart
    const doc = compileDocument({ template, data: { rows: new Array(4_000_000).fill(0) } });
    expect(doc.issues).toEqual([stopped('count')]);
  });
});
