import { createHmac } from 'node:crypto';
import { WebhookSigner } from './webhook-signer';

const ACTIVE = 'whsec_test_secret_0123456789abcdef';
const PREVIOUS = 'whsec_previous_secret_fedcba9876543210';
const BODY = '{"jobId":"4f1c2a9e-0b7d-4c1e-9a51-2b3c4d5e6f70","state":"completed"}';
const T = 1_700_000_000;

describe('WebhookSigner', () => {
  const signer = new WebhookSigner();

  it('6.4: known-answer vector (computed with `openssl dgst -sha256 -hmac`, whsec_ prefix part of the key)', () => {
    expect(signer.sign(BODY, { active: ACTIVE }, T)).toBe(
      't=1700000000,v1=5ef12d621dd0076386bd1ac96ce2e50dfb8923132de826500fea4b60980d00d7',
    );
  });

  it('6.4: v1 is HMAC-SHA256(secret, "<t>.<raw body>") in lowercase hex, recomputed here with node:crypto', () => {
    const expected = createHmac('sha256', ACTIVE).update(`${T}.${BODY}`).digest('hex');
    expect(signer.sign(BODY, { active: ACTIVE }, T)).toBe(`t=${T},v1=${expected}`);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('6.4: the raw body is signed as UTF-8 bytes; a string and its Buffer sign alike (known answer)', () => {
    const body = '{"message":"Zürich €"}';
    const expected = 't=1700000000,v1=4c686a0e55a7b9d52ab39f854bb2f5f6bf954bb578778f220adfdf7afc6dabfc';
    expect(signer.sign(body, { active: ACTIVE }, T)).toBe(expected);
    expect(signer.sign(Buffer.from(body, 'utf8'), { active: ACTIVE }, T)).toBe(expected);
  });

  it('6.4: during rotation the header holds two v1 values, active secret first', () => {
    expect(signer.sign(BODY, { active: ACTIVE, previous: PREVIOUS }, T)).toBe(
      't=1700000000' +
        ',v1=5ef12d621dd0076386bd1ac96ce2e50dfb8923132de826500fea4b60980d00d7' +
        ',v1=b86deeb4ae6f227b9d684952193329426f6474f678435b9dac03cb7c4c885fc5',
    );
  });

  it('6.4: without a previous secret (null) only the active secret signs', () => {
    expect(signer.sign(BODY, { active: ACTIVE, previous: null }, T).split(',')).toHaveLength(2);
  });

  it('6.3 rule 5: each attempt is signed with the time it is sent (default: the current clock)', () => {
    const before = Math.floor(Date.now() / 1000);
    const header = signer.sign(BODY, { active: ACTIVE });
    const after = Math.floor(Date.now() / 1000);
    const t = Number(/^t=(\d+),/.exec(header)?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
    expect(signer.sign(BODY, { active: ACTIVE }, T + 2)).not.toBe(signer.sign(BODY, { active: ACTIVE }, T));
  });

  it('refuses an empty active secret and a non-integer time', () => {
    expect(() => signer.sign(BODY, { active: '' }, T)).toThrow(RangeError);
    expect(() => signer.sign(BODY, { active: ACTIVE }, 1.5)).toThrow(RangeError);
  });
});
