/**
 * Test instrument for issue 31: counts the primitive work the JavaScript built-ins do while a function runs — the
 * items an array method walks (n·log2 n for a sort), the characters a string method reads or a join/stringify
 * produces (in steps of 16, as the budget counts them), the keys Object.keys/entries return, Map lookups — by
 * wrapping those built-ins for the duration of the call. It shares nothing with the evaluator's charges, so a
 * function that forgets to charge the budget shows up as work without steps. No clock is read.
 */

/** Characters counted as one unit of work, as the expression budget counts text. */
const CHARACTERS_PER_UNIT = 16;
const textSteps = (length: number): number => Math.floor(length / CHARACTERS_PER_UNIT);
/** Comparisons of a merge sort of n items. */
const sortSteps = (n: number): number => n * Math.ceil(Math.log2(n + 1));

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;

const STRING_METHODS = ['includes', 'lastIndexOf', 'startsWith', 'endsWith', 'split', 'trim', 'trimStart', 'trimEnd', 'toLocaleUpperCase', 'toLocaleLowerCase', 'toUpperCase', 'toLowerCase', 'replace', 'localeCompare', 'padStart', 'padEnd', 'repeat'] as const;
const ARRAY_METHODS = ['includes', 'indexOf', 'some', 'every', 'map', 'filter', 'join', 'reduce', 'forEach', 'concat', 'find', 'findIndex'] as const;

function textLengthOf(args: unknown[]): number {
  let n = 0;
  for (const a of args) if (typeof a === 'string') n += a.length;
  return n;
}

/** Runs `run` and returns what it returned with the work the built-ins did meanwhile, in all and by built-in. */
export function countWork<T>(run: () => T): { result: T; work: number; byBuiltIn: Record<string, number> } {
  let work = 0;
  const byBuiltIn: Record<string, number> = {};
  let inside = false;
  const restore: (() => void)[] = [];
  const wrap = (owner: object, name: string, cost: (self: unknown, args: unknown[], out: unknown) => number): void => {
    const original = (owner as Record<string, AnyFn>)[name];
    if (typeof original !== 'function') return;
    const key = `${owner === String.prototype ? 'String' : owner === Array.prototype ? 'Array' : owner === Map.prototype ? 'Map' : owner === JSON ? 'JSON' : 'Object'}.${name}`;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      if (inside) return original.apply(this, args);
      inside = true;
      try {
        const out = original.apply(this, args);
        const units = cost(this, args, out);
        work += units;
        byBuiltIn[key] = (byBuiltIn[key] ?? 0) + units;
        return out;
      } finally {
        inside = false;
      }
    };
    (owner as Record<string, AnyFn>)[name] = wrapped;
    restore.push(() => {
      (owner as Record<string, AnyFn>)[name] = original;
    });
  };
  for (const name of STRING_METHODS) wrap(String.prototype, name, (self, args) => 1 + textSteps(String(self).length + textLengthOf(args)));
  // a search from a position scans from there to what it finds
  wrap(String.prototype, 'indexOf', (self, args, out) => {
    const from = typeof args[1] === 'number' ? args[1] : 0;
    const search = String(args[0]).length;
    const to = (out as number) < 0 ? String(self).length : (out as number) + search;
    return 1 + textSteps(Math.max(0, to - from) + search);
  });
  for (const name of ARRAY_METHODS) {
    wrap(Array.prototype, name, (self, args, out) => 1 + (self as unknown[]).length + (typeof out === 'string' ? textSteps(out.length) : 0) + textSteps(textLengthOf(args)));
  }
  wrap(Array.prototype, 'sort', (self) => 1 + sortSteps((self as unknown[]).length));
  wrap(Object, 'keys', (_self, _args, out) => 1 + (out as unknown[]).length);
  wrap(Object, 'entries', (_self, _args, out) => 1 + (out as unknown[]).length);
  wrap(JSON, 'stringify', (_self, _args, out) => 1 + (typeof out === 'string' ? textSteps(out.length) : 0));
  wrap(Map.prototype, 'get', (_self, args) => 1 + textSteps(textLengthOf(args)));
  wrap(Map.prototype, 'set', (_self, args) => 1 + textSteps(textLengthOf(args)));
  try {
    return { result: run(), work, byBuiltIn };
  } finally {
    for (const undo of restore.reverse()) undo();
  }
}
