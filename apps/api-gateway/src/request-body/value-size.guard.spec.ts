import * as fc from 'fast-check';
import { scanJsonBody } from './json-body.scanner';
import { ValueSizeGuard } from './value-size.guard';

/** The first value (a top-level member, or an element of `documents`) longer than `limit` bytes, by the full scanner. */
function firstOversized(body: Buffer, limit: number): string | null {
  const scan = scanJsonBody(body, ['documents']);
  if (!scan.valid) throw new Error(scan.reason);
  const values = scan.members.flatMap((m) =>
    m.elements === null ? [{ name: m.key, start: m.start, end: m.end }] : m.elements.map((e, i) => ({ name: `${m.key}[${i}]`, start: e.start, end: e.end })),
  );
  return values.sort((a, b) => a.start - b.start).find((v) => v.end - v.start > limit)?.name ?? null;
}

function feedInChunks(body: Buffer, cuts: number[], limit: number): string | null {
  const guard = new ValueSizeGuard(['documents'], limit);
  const points = [...new Set([0, ...cuts.map((c) => c % (body.length + 1)), body.length])].sort((a, b) => a - b);
  for (let i = 1; i < points.length; i++) {
    const found = guard.feed(body.subarray(points[i - 1], points[i]));
    if (found !== null) return found;
  }
  return null;
}

describe('ValueSizeGuard (spec 8: 50 MB per document, enforced while the body is read)', () => {
  it('names exactly the first member or document over the limit, however the body is cut into chunks', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    const body = fc
      .tuple(
        fc.record({ documents: fc.array(fc.dictionary(fc.string({ unit: 'grapheme' }), value, { maxKeys: 4 }), { maxLength: 4 }), other: value, 'd\\"x': value }),
        fc.boolean(),
      )
      .map(([o, indent]) => Buffer.from(JSON.stringify(o, null, indent ? 1 : 0), 'utf8'));
    fc.assert(
      fc.property(body, fc.array(fc.nat(), { maxLength: 6 }), fc.integer({ min: 1, max: 60 }), (bytes, cuts, limit) => {
        expect(feedInChunks(bytes, cuts, limit)).toBe(firstOversized(bytes, limit));
      }),
      { seed: 17, numRuns: 300 },
    );
  });

  it('refuses a document while it is still open, without waiting for its end', () => {
    const guard = new ValueSizeGuard(['documents'], 10);
    expect(guard.feed(Buffer.from('{"documents":[{"a":1},{"b":"'))).toBeNull();
    expect(guard.feed(Buffer.from('0123456789'))).toBe('documents[1]');
  });

  it('does not measure the documents array itself, only its elements', () => {
    const guard = new ValueSizeGuard(['documents'], 10);
    expect(guard.feed(Buffer.from(`{"documents":[${Array.from({ length: 50 }, () => '{"a":1}').join(',')}]}`))).toBeNull();
  });
});
