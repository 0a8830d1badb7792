import { environmentOfKey, warnOnProductionKeyInTest, type ClientWarning } from './api-key-environment';

describe('API keys and environments (spec part 1)', () => {
  it('1: the prefix alone selects the environment', () => {
    expect(environmentOfKey('service_test_abc')).toBe('test');
    expect(environmentOfKey('service_prod_abc')).toBe('production');
    expect(environmentOfKey('sk_live_abc')).toBeNull();
  });

  it('1: warns once per process when a production key is used where NODE_ENV=test, and never otherwise', () => {
    const warnings: ClientWarning[] = [];
    const warn = (w: ClientWarning): number => warnings.push(w);
    warnOnProductionKeyInTest('service_prod_abc', { NODE_ENV: 'production' }, warn);
    warnOnProductionKeyInTest('service_test_abc', { NODE_ENV: 'test' }, warn);
    expect(warnings).toEqual([]);
    warnOnProductionKeyInTest('service_prod_abc', { NODE_ENV: 'test' }, warn);
    warnOnProductionKeyInTest('service_prod_other', { NODE_ENV: 'test' }, warn);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].code).toBe('DOCRENDER_PRODUCTION_KEY_IN_TEST');
    expect(warnings[0].message).toContain('NODE_ENV=test');
  });
});
