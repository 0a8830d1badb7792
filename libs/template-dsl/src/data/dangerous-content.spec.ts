import { dangerIn, executableIn } from './dangerous-content';

/** A DOS header as linkers write it: "MZ", then words with NUL bytes. */
const DOS_HEADER = Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0xb8, 0, 0, 0, 0, 0, 0, 0]);

describe('dangerIn (spec 7.3 DangerousContent: payloads, not angle brackets)', () => {
  it('names what it found and where it was encoded', () => {
    expect(dangerIn('&lt;script&gt;')).toBe('script or HTML injection (a <script> element)');
    expect(dangerIn('<img/src/onerror=alert(1)>')).toBe('script or HTML injection (an event handler attribute onerror= on <img>)');
    expect(dangerIn('java\tscript:alert(1)')).toBe('script or HTML injection (a javascript: URL)');
    expect(dangerIn(DOS_HEADER.toString('base64url'))).toBe('an embedded executable (a Windows executable (PE/MZ))');
    expect(dangerIn('PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==')).toBe('script or HTML injection (a <script> element) in Base64');
  });

  it('an element is dangerous by what it can do: <link>, <base>, <object> only with the attributes that load something', () => {
    expect(dangerIn('<link to the handbook>')).toBeNull();
    expect(dangerIn('<link rel="stylesheet" href="https://evil.example/x.css">')).not.toBeNull();
    expect(dangerIn('Total = <base price> + VAT')).toBeNull();
    expect(dangerIn('<base href="https://evil.example/">')).not.toBeNull();
    expect(dangerIn('List<Object>')).toBeNull();
    expect(dangerIn('<object data="https://evil.example/x.swf"></object>')).not.toBeNull();
  });

  it('an on… attribute is an event handler only when it names an event (online, once, onto do not)', () => {
    expect(dangerIn('when x<y and online = true')).toBeNull();
    expect(dangerIn('when x<y and onclick = alert(1)')).not.toBeNull();
    expect(dangerIn('Set onload = false in the legacy config')).toBeNull();
    expect(dangerIn('" onmouseover="alert(1)')).not.toBeNull();
  });

  it('CSS payloads count in markup (a style element or attribute), and @import in prose does not', () => {
    expect(dangerIn('Sass tip: use @import')).toBeNull();
    expect(dangerIn('<style>@import url(https://evil.example/x.css)</style>')).not.toBeNull();
    expect(dangerIn('<div style="width: expression(alert(1))">')).not.toBeNull();
    expect(dangerIn('<style>p { color: red }</style>')).toBeNull();
  });

  it('"MZ" is an executable only with a DOS header behind it; a model name is not', () => {
    expect(executableIn('MZ-2000 label printer')).toBeNull();
    expect(executableIn(DOS_HEADER.toString('latin1'))).toBe('a Windows executable (PE/MZ)');
    expect(executableIn(DOS_HEADER.toString('hex'))).toBe('a Windows executable (PE/MZ)');
  });

  it('hostile inputs are scanned in linear time (no backtracking, no re-reading)', () => {
    const n = 100_000;
    expect(dangerIn('<style>'.repeat(n))).toBeNull();
    expect(dangerIn('<a title="'.repeat(n))).toBeNull();
    expect(dangerIn('&lt;'.repeat(n))).toBeNull();
    expect(dangerIn('%25'.repeat(n))).toBeNull();
    expect(dangerIn('javascript:'.repeat(n))).toBeNull();
    expect(dangerIn('onononon '.repeat(n))).toBeNull();
    expect(dangerIn(`${Buffer.from('text '.repeat(n)).toString('base64')}`)).toBeNull();
    expect(dangerIn(`${'<style>'.repeat(n)}</style><script>`)).not.toBeNull();
  });
});
