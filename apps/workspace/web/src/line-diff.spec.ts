import { lineDiff, prettyJson, type DiffLine } from './line-diff';

const render = (lines: DiffLine[]): string => lines.map((l) => `${{ same: ' ', removed: '-', added: '+' }[l.kind]}${l.text}`).join('\n');

describe('lineDiff (issue 35 item 2: compare two versions)', () => {
  it('keeps common lines and marks removed and added ones, in order', () => {
    expect(render(lineDiff('a\nb\nc\nd', 'a\nc\nx\nd'))).toBe(' a\n-b\n c\n+x\n d');
  });

  it('numbers lines in each text', () => {
    const lines = lineDiff('a\nb', 'b\nc');
    expect(lines).toEqual([
      { kind: 'removed', text: 'a', oldNumber: 1, newNumber: null },
      { kind: 'same', text: 'b', oldNumber: 2, newNumber: 1 },
      { kind: 'added', text: 'c', oldNumber: null, newNumber: 2 },
    ]);
  });

  it('handles equal, empty and wholly different texts', () => {
    expect(lineDiff('x\ny', 'x\ny').every((l) => l.kind === 'same')).toBe(true);
    expect(render(lineDiff('', 'a'))).toBe('+a');
    expect(render(lineDiff('a', ''))).toBe('-a');
    expect(render(lineDiff('a\nb', 'c\nd'))).toBe('-a\n-b\n+c\n+d');
  });

  it('finds a longest common subsequence between a changed head and tail', () => {
    const before = ['{', '  "a": 1,', '  "b": 2,', '  "c": 3,', '  "d": 4', '}'].join('\n');
    const after = ['{', '  "a": 1,', '  "c": 3,', '  "b": 2,', '  "d": 5', '}'].join('\n');
    const lines = lineDiff(before, after);
    expect(lines.filter((l) => l.kind === 'same')).toHaveLength(4);
    expect(lines.filter((l) => l.kind !== 'same').map((l) => l.text)).toEqual(expect.arrayContaining(['  "d": 4', '  "d": 5']));
  });

  it('pretty-prints JSON so values compare line by line, and leaves other text alone', () => {
    expect(prettyJson('{"a":[1,2]}')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
    expect(prettyJson('not json {')).toBe('not json {');
    expect(prettyJson(null)).toBe('');
  });
});
