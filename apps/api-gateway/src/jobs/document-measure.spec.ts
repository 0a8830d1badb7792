import { nestingDepth } from './document-measure';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
};

describe('nestingDepth', () => {
  it('counts like the body scanner: scalar 0, {} 1, {"a":[]} 2', () => {
    expect(nestingDepth(5)).toBe(0);
    expect(nestingDepth({})).toBe(1);
    expect(nestingDepth({ a: [] })).toBe(2);
    expect(nestingDepth({ a: 1, b: { c: [1, { d: null }] }, e: [] })).toBe(4);
  });

  it('part 8: 32 levels are allowed, 33 are over the limit', () => {
    expect(nestingDepth(nested(32))).toBe(32);
    expect(nestingDepth(nested(33))).toBe(33);
  });

  it('stops once past the cap, whatever the depth (no stack overflow)', () => {
    expect(nestingDepth(nested(200_000))).toBe(33);
  });
});
