import { EncodedJson } from '@docrender/contracts';
import { decodeMessage, encodeMessage } from './message-codec';

describe('the message codec (decision 0022)', () => {
  it('a value without byte arrays is its plain JSON, with no binary parts', () => {
    const value = { outcome: 'rendered', issues: [{ type: 'x' }], pdf: null };
    const encoded = encodeMessage(value);
    expect(encoded).toEqual({ body: Buffer.from(JSON.stringify(value)), binaryParts: null });
    expect(decodeMessage(encoded.body, undefined)).toEqual(value);
  });

  it('byte arrays anywhere (objects, arrays, nested) follow the JSON as raw bytes and come back at their places', () => {
    const first = Buffer.from('%PDF-1.7 \u0000\u00ff binary');
    const second = new Uint8Array([1, 2, 3]);
    const value = { pdf: { blobKey: 'k', inlineBytes: first }, list: [second, 'text'], deep: { a: [{ b: Buffer.alloc(0) }] } };
    const encoded = encodeMessage(value);
    expect(encoded.binaryParts).not.toBeNull();
    expect(encoded.body.subarray(encoded.body.length - 3)).toEqual(Buffer.from([1, 2, 3]));
    const decoded = decodeMessage(encoded.body, encoded.binaryParts);
    expect(decoded).toEqual({ pdf: { blobKey: 'k', inlineBytes: first }, list: [Buffer.from(second), 'text'], deep: { a: [{ b: Buffer.alloc(0) }] } });
    // the sender's value is not changed by encoding it
    expect(value.pdf.inlineBytes).toBe(first);
  });

  it('a body with binary parts is not plain JSON: a reader that does not know the header refuses it, never misreads it', () => {
    const encoded = encodeMessage({ bytes: Buffer.from('{"x":1}') });
    expect(() => JSON.parse(encoded.body.toString('utf8'))).toThrow();
  });

  it.each([
    ['not JSON', 'nope'],
    ['a place through __proto__', JSON.stringify([[['__proto__', 'x'], 1]])],
    ['parts longer than the body', JSON.stringify([[['x'], 1000]])],
    ['a place that is not in the JSON', JSON.stringify([[['missing', 'x'], 1]])],
    ['a negative length', JSON.stringify([[['x'], -1]])],
  ])('a body whose binary parts header is malformed does not decode (%s)', (_why, header) => {
    expect(() => decodeMessage(Buffer.from('{"a":1}x'), header)).toThrow();
  });
});

describe('EncodedJson fields (decision 0022)', () => {
  const template = { pages: [{ text: 'Hello "{{name}}" \u2028 ü' }], n: 1.5 };

  it('a top-level EncodedJson field is written as its text: the body decodes to what sending the value itself gives', () => {
    const plain = { requestId: 'r', template, data: { json: '{"name":"Ada"}' }, pdf: null };
    const encoded = encodeMessage({ ...plain, template: EncodedJson.of(template) });
    expect(encoded.binaryParts).toBeNull();
    expect(decodeMessage(encoded.body, null)).toEqual(plain);
    expect(encoded.body.toString()).toContain(`"template":${JSON.stringify(template)}`);
  });

  it('a payload whose only field is EncodedJson, and one with byte arrays too', () => {
    expect(decodeMessage(encodeMessage({ template: EncodedJson.of(template) }).body, null)).toEqual({ template });
    const withBytes = encodeMessage({ template: EncodedJson.of(template), bytes: Buffer.from('x') });
    expect(decodeMessage(withBytes.body, withBytes.binaryParts)).toEqual({ template, bytes: Buffer.from('x') });
  });

  it('EncodedJson deeper in a value is serialised as the value it holds', () => {
    const encoded = encodeMessage({ nested: { template: EncodedJson.of(template) }, list: [EncodedJson.of(undefined)] });
    expect(decodeMessage(encoded.body, null)).toEqual({ nested: { template }, list: [null] });
  });
});
