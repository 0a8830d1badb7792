import { IssueSeverity, RenderIssueType } from '@docrender/contracts';
import { EvaluationBudget } from '../expression/expression-evaluator';
import { checkData, inspectData } from './check-data';
import { executableIn } from './dangerous-content';

function nestedArrays(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function nestedObjects(depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let current = root;
  for (let i = 1; i < depth; i++) {
    const child: Record<string, unknown> = {};
    current.child = child;
    current = child;
  }
  return root;
}

const types = (data: unknown): RenderIssueType[] => checkData(data).map((i) => i.type);

/** Base64 of bytes that start with a signature, padded to look like a real file. */
function base64File(signature: number[]): string {
  return Buffer.from([...signature, ...new Array<number>(120).fill(0x41)]).toString('base64');
}

describe('checkData (spec 7.3 DangerousContent, spec 8 nesting limit)', () => {
  it('8: data nested exactly 32 levels deep is accepted', () => {
    expect(types(nestedObjects(32))).toEqual([]);
    expect(types({ a: nestedArrays(31) })).toEqual([]);
  });

  it('8: nesting deeper than 32 levels is a DangerousContent Error naming where', () => {
    const issues = checkData(nestedObjects(33));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ type: RenderIssueType.DangerousContent, severity: IssueSeverity.Error, elementId: null, documentIndex: null });
    expect(issues[0].description).toContain('$.child.child');
  });

  it('8: a 100,000-deep array is rejected iteratively, without overflowing the stack', () => {
    expect(types({ deep: nestedArrays(100_000) })).toEqual([RenderIssueType.DangerousContent]);
  });

  it('8: 100,000-deep JSON text is rejected before it is parsed', () => {
    const text = `{"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(types(text)).toEqual([RenderIssueType.DangerousContent]);
  });

  it('7.3: data text that does not parse is InvalidJson', () => {
    expect(types('{"number": ')).toEqual([RenderIssueType.InvalidJson]);
    expect(types('{"ok": true}')).toEqual([]);
  });

  it('7.3: values JSON cannot hold are InvalidJson', () => {
    expect(types({ amount: Number.NaN })).toEqual([RenderIssueType.InvalidJson]);
    expect(types({ amount: undefined })).toEqual([RenderIssueType.InvalidJson]);
    expect(types({ when: new Date(0) })).toEqual([RenderIssueType.InvalidJson]);
    expect(types({ f: () => 1 })).toEqual([RenderIssueType.InvalidJson]);
    expect(types(undefined)).toEqual([RenderIssueType.InvalidJson]);
  });

  it('7.3: data that is not an object is SchemaInvalid', () => {
    expect(types([1, 2])).toEqual([RenderIssueType.SchemaInvalid]);
    expect(types(42)).toEqual([RenderIssueType.SchemaInvalid]);
  });

  it.each([
    ['</style><script>alert(1)</script>'],
    ['<img src=x onerror=alert(1)>'],
    ['<iframe src="https://evil.example">'],
    ['javascript:alert(document.cookie)'],
    ['click <a href="javascript:alert(1)">here</a>'],
    ['background: url(javascript:alert(1))'],
    ['width: expression(alert(1))'],
    ['<svg onload=alert(1)>'],
    ['data:text/html,<b>x</b>'],
  ])('7.3: the injection pattern %j is DangerousContent', (value) => {
    const issues = checkData({ customer: { note: value } });
    expect(issues.map((i) => i.type)).toEqual([RenderIssueType.DangerousContent]);
    expect(issues[0].description).toContain('$.customer.note');
  });

  it.each([
    ['JavaScript: The Good Parts'],
    ['Price < 5 & > 3'],
    ['Terms: net 30 days'],
    ['A <= B'],
    ['{{constructor}}'],
    ['mailto:billing@acme.example'],
  ])('7.3: ordinary text %j is not flagged', (value) => {
    expect(types({ value })).toEqual([]);
  });

  it.each([
    ['a Windows executable', [0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00]],
    ['a Linux executable', [0x7f, 0x45, 0x4c, 0x46]],
    ['a macOS executable', [0xcf, 0xfa, 0xed, 0xfe]],
    ['a macOS executable', [0xfe, 0xed, 0xfa, 0xce]],
  ])('7.3: %s in a Base64 string is DangerousContent', (name, signature) => {
    const issues = checkData({ attachment: base64File(signature) });
    expect(issues.map((i) => i.type)).toEqual([RenderIssueType.DangerousContent]);
    expect(issues[0].description).toContain(name);
  });

  it('7.3: an executable inside a data URI is DangerousContent', () => {
    expect(types({ files: [`data:application/octet-stream;base64,${base64File([0x7f, 0x45, 0x4c, 0x46])}`] })).toEqual([
      RenderIssueType.DangerousContent,
    ]);
  });

  it('7.3: raw executable bytes in a string are DangerousContent', () => {
    expect(types({ blob: '\u007fELF\u0002\u0001\u0001' })).toEqual([RenderIssueType.DangerousContent]);
  });

  it('7.3: a long hostile string is scanned in linear time (no catastrophic backtracking)', () => {
    expect(types({ note: '<a on'.repeat(200_000) })).toEqual([]);
    expect(types({ note: `${'<a on'.repeat(200_000)}<b onclick=x>` })).toEqual([RenderIssueType.DangerousContent]);
  });

  it('7.3: images and ordinary Base64 are not executables', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array<number>(64).fill(1)]).toString('base64');
    expect(executableIn(png)).toBeNull();
    expect(executableIn(`data:image/png;base64,${png}`)).toBeNull();
    expect(executableIn('TVqQ')).toBeNull();
    expect(types({ logo: `data:image/png;base64,${png}`, token: 'TVpsY2Vz' })).toEqual([]);
  });
});

describe('issue 31: the data check is charged to the step budget before it is done (decision 0041)', () => {
  it('a step per value and one per 16 characters of text: within the budget the data is usable and the steps are spent', () => {
    const budget = new EvaluationBudget(1_000);
    const inspection = inspectData({ rows: [1, 2, 3], text: 'a'.repeat(16 * 900) }, budget);
    expect([inspection.usable, inspection.issues]).toEqual([true, []]);
    // the two keys, the three rows, the text's 900
    expect(budget.spent).toBe(2 + 3 + 900);
  });

  it('a list longer than the budget is refused before its items are walked: a RenderTimeout Error naming the list', () => {
    const budget = new EvaluationBudget(1_000);
    const inspection = inspectData(JSON.stringify({ lines: { rows: new Array(2_000).fill(0) } }), budget);
    expect(inspection.usable).toBe(false);
    expect(inspection.issues).toEqual([
      expect.objectContaining({ type: RenderIssueType.RenderTimeout, severity: IssueSeverity.Error, description: expect.stringContaining('the check stopped at $.lines.rows.') }),
    ]);
    // reported once: the document's expressions do not report the spent budget again
    expect([budget.exhausted, budget.reported]).toEqual([true, true]);
  });

  it('a text longer than the budget covers is refused before it is scanned, and what was found before is kept', () => {
    const budget = new EvaluationBudget(1_000);
    const inspection = inspectData({ a: '<script>alert(1)</script>', b: 'x'.repeat(16 * 2_000) }, budget);
    expect(inspection.issues.map((i) => i.type)).toEqual([RenderIssueType.DangerousContent, RenderIssueType.RenderTimeout]);
    expect(inspection.issues[1]!.description).toContain('stopped at $.b.');
  });
});
