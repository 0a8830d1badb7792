import { InvalidBlobKeyError, assertValidBlobKey } from './blob-key';

describe('blob keys', () => {
  it.each(['a', 'organisations/1/documents/2.pdf', 'fonts/Inter Bold.woff2', '..a/b..', 'a/.hidden', '%2e%2e/x', 'ünïcode/ключ'])(
    'accepts %j',
    (key) => {
      expect(() => assertValidBlobKey(key)).not.toThrow();
    },
  );

  it.each([
    ['', /empty/],
    ['..', /segment/],
    ['../x', /segment/],
    ['a/../../x', /segment/],
    ['a/..', /segment/],
    ['./a', /segment/],
    ['a//b', /segment/],
    ['a/', /segment/],
    ['/abs', /starts with/],
    ['a\\..\\b', /backslash/],
    ['a\u0000b', /control/],
    ['a\nb', /control/],
    ['x'.repeat(1025), /longer than 1024/],
  ])('refuses %j', (key, reason) => {
    expect(() => assertValidBlobKey(key)).toThrow(InvalidBlobKeyError);
    expect(() => assertValidBlobKey(key)).toThrow(reason);
  });
});
