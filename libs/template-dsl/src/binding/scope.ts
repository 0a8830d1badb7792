/** One step of a data path: a field name or a list index. */
export type PathSegment = string | number;

export type Lookup = { found: true; value: unknown } | { found: false };

const NOT_FOUND: Lookup = { found: false };
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Reads one step of a path: own properties of plain objects and in-range indexes of arrays only, so no
 * binding or condition can reach a prototype (`constructor`, `__proto__`, `toString` resolve to nothing).
 */
export function step(container: unknown, key: PathSegment): Lookup {
  if (typeof container !== 'object' || container === null) return NOT_FOUND;
  if (Array.isArray(container)) {
    if (typeof key === 'number' || /^(0|[1-9][0-9]*)$/.test(key)) {
      const index = Number(key);
      return index < container.length ? { found: true, value: container[index] } : NOT_FOUND;
    }
    return key === 'length' ? { found: true, value: container.length } : NOT_FOUND;
  }
  const name = String(key);
  return hasOwn.call(container, name) ? { found: true, value: (container as Record<string, unknown>)[name] } : NOT_FOUND;
}

/**
 * Names visible to bindings: the variables of enclosing repeaters (the item alias and `loop`), innermost
 * first, then the properties of the document data.
 */
export class Scope {
  private constructor(
    readonly data: unknown,
    private readonly parent: Scope | null,
    private readonly name: string | null,
    private readonly value: unknown,
  ) {}

  static of(data: unknown): Scope {
    return new Scope(data, null, null, undefined);
  }

  with(name: string, value: unknown): Scope {
    return new Scope(this.data, this, name, value);
  }

  lookupName(name: string): Lookup {
    if (this.name === name) return { found: true, value: this.value };
    return this.parent ? this.parent.lookupName(name) : step(this.data, name);
  }

  resolve(segments: readonly PathSegment[]): Lookup {
    let current = this.lookupName(String(segments[0]));
    for (let i = 1; i < segments.length && current.found; i++) current = step(current.value, segments[i]);
    return current;
  }
}

/** The `loop` variable of a repeated item. */
export function loopInfo(index: number, count: number): Record<string, unknown> {
  return { index, number: index + 1, count, first: index === 0, last: index === count - 1 };
}
