import fc from 'fast-check';
import { scanJsonBody, type JsonBodyScan } from './json-body.scanner';

const scan = (text: string, splitKeys: string[] = ['documents']): JsonBodyScan => scanJsonBody(Buffer.from(text, 'utf8'), splitKeys);

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('scanJsonBody', () => {
  it('maps the members of the root object with their byte ranges, kinds and depths', () => {
    const text = '{ "documents": [ {"a": [1, {"b": 2}]}, {} ], "includeDocument": true, "x": "y" }';
    const result = scan(text);
    if (!result.valid) throw new Error(result.reason);
    expect(result.root).toBe('object');
    expect(result.members.map((m) => [m.key, m.kind, m.depth, text.slice(m.start, m.end)])).toEqual([
      ['documents', 'array', 4, '[ {"a": [1, {"b": 2}]}, {} ]'],
      ['includeDocument', 'boolean', 0, 'true'],
      ['x', 'string', 0, '"y"'],
    ]);
    expect(result.members[0].elements?.map((e) => [e.kind, e.depth, text.slice(e.start, e.end)])).toEqual([
      ['object', 3, '{"a": [1, {"b": 2}]}'],
      ['object', 1, '{}'],
    ]);
    expect(result.members[1].elements).toBeNull();
  });

  it('splits only the members it is asked to, and elements of any kind', () => {
    const text = '{"documents":[1,"two",null,[[]]],"other":[1,2]}';
    const result = scan(text);
    if (!result.valid) throw new Error(result.reason);
    expect(result.members[0].elements?.map((e) => [e.kind, e.depth, text.slice(e.start, e.end)])).toEqual([
      ['number', 0, '1'],
      ['string', 0, '"two"'],
      ['null', 0, 'null'],
      ['array', 2, '[[]]'],
    ]);
    expect(result.members[1].elements).toBeNull();
  });

  it('decodes escaped member names', () => {
    const result = scan('{"docu\\u006dents":[{}]}');
    if (!result.valid) throw new Error(result.reason);
    expect(result.members[0].key).toBe('documents');
    expect(result.members[0].elements).toHaveLength(1);
  });

  it('reports the root kind of a body that is not an object, without members', () => {
    for (const [text, kind] of [['[{}]', 'array'], ['"x"', 'string'], ['12', 'number'], ['null', 'null'], ['true', 'boolean']] as const) {
      const result = scan(text);
      expect(result).toEqual({ valid: true, root: kind, members: [] });
    }
  });

  it('8: measures a 100,000-deep array iteratively and quickly', () => {
    const depth = 100_000;
    const text = `{"documents":[{"deep":${'['.repeat(depth)}${']'.repeat(depth)}}]}`;
    const result = scan(text);
    if (!result.valid) throw new Error(result.reason);
    expect(result.members[0].elements?.[0].depth).toBe(depth + 1);
  });

  it.each([
    ['', 'unexpected end of body'],
    ['{', 'expected a member name'],
    ['{"a":1,}', 'expected a member name'],
    ['{"a" 1}', "expected ':'"],
    ['{"a":1 "b":2}', "expected ',' or '}'"],
    ['[1 2]', "expected ',' or ']'"],
    ['[1,]', 'expected a JSON value'],
    ['{"a":01}', "expected ',' or '}'"],
    ['{"a":-}', 'invalid number'],
    ['{"a":1.}', 'invalid number'],
    ['{"a":1e}', 'invalid number'],
    ['{"a":tru}', 'invalid literal'],
    ['{"a":"\\x"}', 'invalid escape in string'],
    ['{"a":"\\u12g4"}', 'invalid \\u escape'],
    ['{"a":"line\nbreak"}', 'control character in string'],
    ['{"a":"open', 'unterminated string'],
    ['{} {}', 'unexpected data after the JSON value'],
    ['\uFEFF{}', 'expected a JSON value'],
    ["{'a':1}", 'expected a member name'],
  ])('rejects %j: %s', (text, reason) => {
    const result = scan(text);
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.reason).toContain(reason);
  });

  it('names the byte offset of a syntax error', () => {
    const result = scan('{"documents":[{"a":1},{"b":]}');
    expect(result).toMatchObject({ valid: false, offset: 27 });
    if (!result.valid) expect(result.reason).toBe("expected a JSON value at byte 27 (found ']')");
  });

  it('accepts exactly what JSON.parse accepts (random JSON texts and their mutations)', () => {
    const mutated = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', '\\', ':', '0', '-', 'e', '\u0001', ' ', 'tru'), fc.boolean())
      .map(([text, at, insert, remove]) => {
        const position = text.length === 0 ? 0 : at % text.length;
        return text.slice(0, position) + insert + text.slice(position + (remove ? 1 : 0));
      });
    fc.assert(
      fc.property(fc.oneof(fc.json(), mutated), (text) => {
        expect(scan(text).valid).toBe(parsesAsJson(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives each member and element the range JSON.parse reads back to the same value', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 5 }), fc.jsonValue(), (documents, other) => {
        const text = JSON.stringify({ other, documents }, null, 1);
        const result = scan(text);
        if (!result.valid) throw new Error(result.reason);
        const documentsMember = result.members.find((m) => m.key === 'documents');
        const elements = documentsMember?.elements ?? [];
        expect(elements.map((e) => JSON.parse(text.slice(e.start, e.end)) as unknown)).toEqual(JSON.parse(JSON.stringify(documents)));
      }),
    );
  });
});
