import { Environment } from '@docrender/contracts';
import { apiKeyProblem, digestsEqual, generateApiKey, hashApiKey, parseApiKey } from './api-key-secret';
import { generateWebhookSecret, webhookSecretProblem } from './webhook-secret-generator';

describe('API key secrets', () => {
  it('5.2: generated keys carry the environment prefix and 40 base62 characters, all different', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey(Environment.Production)));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^service_prod_[A-Za-z0-9]{40}$/);
  });

  it('1.9: parsing takes the environment from the prefix alone and a 12-character lookup prefix', () => {
    expect(parseApiKey('service_test_ABCDEFGHIJKLmnopqrstu')).toEqual({ environment: Environment.Test, lookupPrefix: 'ABCDEFGHIJKL' });
    expect(parseApiKey('service_prod_ABCDEFGHIJKLmnopqrstu')).toEqual({ environment: Environment.Production, lookupPrefix: 'ABCDEFGHIJKL' });
    expect(parseApiKey('service_live_ABCDEFGHIJKLmnopqrstu')).toBeNull();
    expect(parseApiKey('service_test_short')).toBeNull();
    expect(parseApiKey('service_test_has space in it 0123456')).toBeNull();
  });

  it('names what is wrong with an importable key', () => {
    expect(apiKeyProblem('sk_0123456789abcdef0123')).toBe('must start with service_test_ or service_prod_');
    expect(apiKeyProblem('service_test_abc')).toMatch(/16 to 256 characters/);
    expect(apiKeyProblem('service_test_0123456789abcdef')).toBeNull();
  });

  it('hashes under the pepper: same key and pepper agree, another pepper does not', () => {
    const key = generateApiKey(Environment.Test);
    expect(hashApiKey(key, 'p1')).toMatch(/^[0-9a-f]{64}$/);
    expect(digestsEqual(hashApiKey(key, 'p1'), hashApiKey(key, 'p1'))).toBe(true);
    expect(digestsEqual(hashApiKey(key, 'p1'), hashApiKey(key, 'p2'))).toBe(false);
    expect(digestsEqual(hashApiKey(key, 'p1'), 'abcd')).toBe(false);
  });

  it('5.5: webhook secrets start with whsec_ and are random', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(generateWebhookSecret()).not.toBe(a);
    expect(webhookSecretProblem(a)).toBeNull();
    expect(webhookSecretProblem('whsec_x')).toMatch(/16 to 256/);
    expect(webhookSecretProblem('secret_0123456789abcdef')).toBe('must start with whsec_');
  });
});
