import { Limits } from '@docrender/contracts';

/**
 * How deeply a JSON value nests, counted like the render body scanner (a scalar is 0, `{}` is 1, `{"a":[]}` is 2),
 * but never beyond `cap`: the walk stops once `cap` is exceeded and answers `cap + 1`. Iterative, so no depth can
 * overflow the stack.
 */
export function nestingDepth(value: unknown, cap: number = Limits.maxNestingDepth): number {
  let deepest = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (current === null || typeof current !== 'object') continue;
    const inner = depth + 1;
    if (inner > deepest) deepest = inner;
    if (deepest > cap) return cap + 1;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: inner });
    }
  }
  return deepest;
}
