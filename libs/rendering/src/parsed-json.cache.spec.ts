import { ParsedJsonCache } from './parsed-json.cache';

describe('ParsedJsonCache (templates and translations parsed once per version in use)', () => {
  it('gives the same value for the same text, and the text’s own value for another', () => {
    const cache = new ParsedJsonCache(4, 1000);
    const first = cache.parse('{"body":[{"type":"text","id":"a"}]}');
    expect(cache.parse('{"body":[{"type":"text","id":"a"}]}')).toBe(first);
    expect(cache.parse('{"body":[]}')).toEqual({ body: [] });
    expect(cache.parse('null')).toBeNull();
  });

  it('keeps at most maxEntries values, dropping the least recently used', () => {
    const cache = new ParsedJsonCache(2, 1000);
    const a = cache.parse('{"n":1}');
    const b = cache.parse('{"n":2}');
    expect(cache.parse('{"n":1}')).toBe(a);
    cache.parse('{"n":3}');
    expect(cache.parse('{"n":1}')).toBe(a);
    expect(cache.parse('{"n":2}')).not.toBe(b);
  });

  it('does not keep texts longer than maxTextLength', () => {
    const cache = new ParsedJsonCache(4, 10);
    const long = JSON.stringify({ text: 'x'.repeat(20) });
    expect(cache.parse(long)).not.toBe(cache.parse(long));
    expect(cache.parse(long)).toEqual({ text: 'x'.repeat(20) });
  });

  it('throws on text that is not JSON, keeping nothing', () => {
    const cache = new ParsedJsonCache(4, 1000);
    expect(() => cache.parse('{')).toThrow(SyntaxError);
    expect(() => cache.parse('{')).toThrow(SyntaxError);
  });
});
