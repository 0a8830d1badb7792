import { ParsedJsonCache } from './parsed-json.cache';

describe('ParsedJsonCache (templates and translations parsed once per version in use)', () => {
  it('gives the same value for the same key and text, and the text’s own value for another', () => {
    const cache = new ParsedJsonCache(4, 1000);
    const first = cache.parse('t1:1', '{"body":[{"type":"text","id":"a"}]}');
    expect(cache.parse('t1:1', '{"body":[{"type":"text","id":"a"}]}')).toBe(first);
    expect(cache.parse('t1:2', '{"body":[]}')).toEqual({ body: [] });
    expect(cache.parse('t1:3', 'null')).toBeNull();
  });

  it('a key whose text changed (a draft edited in place) gives the new text’s value, never the old one', () => {
    const cache = new ParsedJsonCache(4, 1000);
    cache.parse('t1:1', '{"n":1}');
    expect(cache.parse('t1:1', '{"n":2}')).toEqual({ n: 2 });
    const second = cache.parse('t1:1', '{"n":2}');
    expect(cache.parse('t1:1', '{"n":2}')).toBe(second);
  });

  it('keeps at most maxEntries values, dropping the least recently used', () => {
    const cache = new ParsedJsonCache(2, 1000);
    const a = cache.parse('a', '{"n":1}');
    const b = cache.parse('b', '{"n":2}');
    expect(cache.parse('a', '{"n":1}')).toBe(a);
    cache.parse('c', '{"n":3}');
    expect(cache.parse('a', '{"n":1}')).toBe(a);
    expect(cache.parse('b', '{"n":2}')).not.toBe(b);
  });

  it('does not keep texts longer than maxTextLength (nor the value of a shorter text the key had before)', () => {
    const cache = new ParsedJsonCache(4, 20);
    const long = JSON.stringify({ text: 'x'.repeat(20) });
    expect(cache.parse('a', long)).not.toBe(cache.parse('a', long));
    expect(cache.parse('a', long)).toEqual({ text: 'x'.repeat(20) });
    const short = cache.parse('b', '{"n":1}');
    expect(cache.parse('b', long)).toEqual({ text: 'x'.repeat(20) });
    expect(cache.parse('b', '{"n":1}')).not.toBe(short);
  });

  it('throws on text that is not JSON, keeping nothing', () => {
    const cache = new ParsedJsonCache(4, 1000);
    expect(() => cache.parse('a', '{')).toThrow(SyntaxError);
    expect(() => cache.parse('a', '{')).toThrow(SyntaxError);
  });
});
