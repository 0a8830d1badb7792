/** One line of a line diff: kept (in both), removed (only in the first text) or added (only in the second). */
export type DiffLine = { kind: 'same' | 'removed' | 'added'; text: string; oldNumber: number | null; newNumber: number | null };

/** Past this many cells (lines × lines between the common head and tail) the middle is shown removed then added. */
const MAX_CELLS = 25_000_000;

/**
 * A line diff of two texts (issue 35 item 2: compare two versions): the longest common subsequence of their lines,
 * after taking off the lines they share at the start and the end. Written here rather than taken from npm: it is
 * these forty lines, and the texts compared are templates of at most some thousand lines.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const out: DiffLine[] = [];
  const same = (i: number, j: number) => out.push({ kind: 'same', text: a[i], oldNumber: i + 1, newNumber: j + 1 });
  for (let i = 0; i < head; i++) same(i, i);
  const removed = (i: number) => out.push({ kind: 'removed', text: x[i], oldNumber: head + i + 1, newNumber: null });
  const added = (j: number) => out.push({ kind: 'added', text: y[j], oldNumber: null, newNumber: head + j + 1 });
  if (x.length * y.length > MAX_CELLS) {
    x.forEach((_, i) => removed(i));
    y.forEach((_, j) => added(j));
  } else {
    // lcs[i * w + j]: the longest common subsequence of x[i..] and y[j..]
    const w = y.length + 1;
    const lcs = new Uint32Array((x.length + 1) * w);
    for (let i = x.length - 1; i >= 0; i--) {
      for (let j = y.length - 1; j >= 0; j--) {
        lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) {
        same(head + i, head + j);
        i++;
        j++;
      } else if (i < x.length && (j === y.length || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
        removed(i++); // a removal before the addition that replaces it
      } else {
        added(j++);
      }
    }
  }
  for (let k = tail; k > 0; k--) same(a.length - k, b.length - k);
  return out;
}

/** A JSON text pretty-printed with two spaces (so that diffs compare values line by line); other text as it is. */
export function prettyJson(text: string | null): string {
  if (text === null) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
