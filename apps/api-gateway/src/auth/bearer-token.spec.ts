import { bearerToken } from './bearer-token';

describe('bearerToken', () => {
  it.each([
    ['Bearer service_test_abc', 'service_test_abc'],
    ['bearer service_prod_abc', 'service_prod_abc'],
    ['BEARER   key  ', 'key'],
  ])('5.1: %j carries the key', (header, key) => {
    expect(bearerToken(header)).toBe(key);
  });

  it.each([[undefined], [''], ['Bearer'], ['Bearer '], ['Basic dXNlcjpwYXNz'], ['Bearer a b'], ['Bearerkey'], [['Bearer a', 'Bearer b']]])(
    '5.3: %j is malformed',
    (header) => {
      expect(bearerToken(header)).toBeNull();
    },
  );
});
