import { createHmac } from 'node:crypto';
import { thrownBy } from '../test/thrown-by';
import { WebhookSignatureError, WebhookSignatureFailure } from './webhook-signature.error';
import { WebhookSigner } from './webhook-signer';
import { DEFAULT_SIGNATURE_TOLERANCE_SECONDS, VerifyWebhookInput, WebhookVerifier } from './webhook-verifier';

const ACTIVE = 'whsec_test_secret_0123456789abcdef';
const PREVIOUS = 'whsec_previous_secret_fedcba9876543210';
const BODY = '{"jobId":"4f1c2a9e-0b7d-4c1e-9a51-2b3c4d5e6f70","state":"completed"}';
const T = 1_700_000_000;

/** Independent of the library: what a sender following spec 6.4 computes. */
const hmac = (secret: string, t: number | string, body: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

const verifier = new WebhookVerifier();

const rejection = (input: VerifyWebhookInput): WebhookSignatureFailure => thrownBy(WebhookSignatureError, () => verifier.verify(input)).reason;

describe('WebhookVerifier', () => {
  it('accepts a body signed as spec 6.4 describes and returns t', () => {
    expect(verifier.verify({ rawBody: BODY, signatureHeader: `t=${T},v1=${hmac(ACTIVE, T, BODY)}`, secrets: ACTIVE, nowSeconds: T })).toBe(T);
  });

  it('accepts what WebhookSigner produces (default clock on both sides)', () => {
    const header = new WebhookSigner().sign(BODY, { active: ACTIVE });
    expect(verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE })).toBe(Number(header.slice(2, header.indexOf(','))));
  });

  describe('rule 1: recompute the HMAC over the raw body', () => {
    it('rule 1: a tampered body is rejected', () => {
      const header = `t=${T},v1=${hmac(ACTIVE, T, BODY)}`;
      const tampered = BODY.replace('completed', 'failed');
      expect(rejection({ rawBody: tampered, signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.NoMatchingSignature,
      );
    });

    it('rule 1: a body re-serialised after parsing (whitespace changed) is rejected: verify the raw bytes', () => {
      const raw = '{ "jobId": "x" }';
      const header = `t=${T},v1=${hmac(ACTIVE, T, raw)}`;
      expect(rejection({ rawBody: JSON.stringify(JSON.parse(raw)), signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.NoMatchingSignature,
      );
      expect(verifier.verify({ rawBody: Buffer.from(raw), signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(T);
    });

    it('rule 1: a tampered t is rejected (t is part of the signed text)', () => {
      const header = `t=${T + 1},v1=${hmac(ACTIVE, T, BODY)}`;
      expect(rejection({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.NoMatchingSignature,
      );
    });

    it('rule 1: a signature made with another secret is rejected', () => {
      const header = `t=${T},v1=${hmac('whsec_someone_else', T, BODY)}`;
      expect(rejection({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.NoMatchingSignature,
      );
    });

    it('rule 1: the key is the secret with its whsec_ prefix; the bare suffix does not verify', () => {
      const header = `t=${T},v1=${hmac(ACTIVE.slice('whsec_'.length), T, BODY)}`;
      expect(rejection({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.NoMatchingSignature,
      );
    });
  });

  describe('rule 2: accept when any v1 matches', () => {
    const rotated = `t=${T},v1=${hmac(ACTIVE, T, BODY)},v1=${hmac(PREVIOUS, T, BODY)}`;

    it('rule 2: during rotation a receiver still holding the previous secret accepts (second v1)', () => {
      expect(verifier.verify({ rawBody: BODY, signatureHeader: rotated, secrets: PREVIOUS, nowSeconds: T })).toBe(T);
    });

    it('rule 2: during rotation a receiver already holding the active secret accepts (first v1)', () => {
      expect(verifier.verify({ rawBody: BODY, signatureHeader: rotated, secrets: ACTIVE, nowSeconds: T })).toBe(T);
    });

    it('rule 2: a receiver configured with several secrets accepts a match on any of them', () => {
      const header = `t=${T},v1=${hmac(PREVIOUS, T, BODY)}`;
      expect(verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: [ACTIVE, PREVIOUS], nowSeconds: T })).toBe(T);
    });

    it('rule 2: a garbage v1 beside a matching one does not prevent acceptance', () => {
      const header = `t=${T},v1=nothex,v1=${'0'.repeat(64)},v1=${hmac(ACTIVE, T, BODY)}`;
      expect(verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(T);
    });

    it('rule 2: a header without any v1 is rejected', () => {
      expect(rejection({ rawBody: BODY, signatureHeader: `t=${T}`, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.NoV1Signature,
      );
    });
  });

  describe('rule 3: tolerance in either direction', () => {
    const signedAt = (t: number) => `t=${t},v1=${hmac(ACTIVE, t, BODY)}`;
    const tol = DEFAULT_SIGNATURE_TOLERANCE_SECONDS;

    it('rule 3: the default tolerance is 300 seconds', () => {
      expect(tol).toBe(300);
    });

    it('rule 3: t exactly 300 s in the past is accepted, 301 s is rejected', () => {
      expect(verifier.verify({ rawBody: BODY, signatureHeader: signedAt(T - tol), secrets: ACTIVE, nowSeconds: T })).toBe(T - tol);
      expect(rejection({ rawBody: BODY, signatureHeader: signedAt(T - tol - 1), secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.TimestampOutsideTolerance,
      );
    });

    it('rule 3: t exactly 300 s in the future is accepted, 301 s is rejected', () => {
      expect(verifier.verify({ rawBody: BODY, signatureHeader: signedAt(T + tol), secrets: ACTIVE, nowSeconds: T })).toBe(T + tol);
      expect(rejection({ rawBody: BODY, signatureHeader: signedAt(T + tol + 1), secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.TimestampOutsideTolerance,
      );
    });

    it('rule 3: a chosen tolerance replaces the default (boundaries both sides)', () => {
      const input = (t: number) => ({ rawBody: BODY, signatureHeader: signedAt(t), secrets: ACTIVE, nowSeconds: T, toleranceSeconds: 10 });
      expect(verifier.verify(input(T - 10))).toBe(T - 10);
      expect(verifier.verify(input(T + 10))).toBe(T + 10);
      expect(rejection(input(T - 11))).toBe(WebhookSignatureFailure.TimestampOutsideTolerance);
      expect(rejection(input(T + 11))).toBe(WebhookSignatureFailure.TimestampOutsideTolerance);
    });

    it('rule 3: a replayed, correctly signed callback is rejected once it is older than the tolerance', () => {
      const header = signedAt(T);
      expect(verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T + 60 })).toBe(T);
      expect(rejection({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T + 3600 })).toBe(
        WebhookSignatureFailure.TimestampOutsideTolerance,
      );
    });
  });

  describe('rule 4: compare in constant time', () => {
    it('rule 4: comparison goes through crypto.timingSafeEqual, guarded for unequal lengths', () => {
      const crypto = jest.requireActual<typeof import('node:crypto')>('node:crypto');
      const spy = jest.spyOn(crypto, 'timingSafeEqual');
      try {
        const good = hmac(ACTIVE, T, BODY);
        const header = `t=${T},v1=abc,v1=${good}`;
        expect(verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(T);
        // the 3-character candidate is skipped by the length guard (timingSafeEqual would throw on it)
        expect(spy).toHaveBeenCalledTimes(1);
        expect(spy.mock.calls[0][0]).toHaveLength(64);
      } finally {
        spy.mockRestore();
      }
    });

    it('rule 4: a v1 that differs only in its last character is rejected', () => {
      const good = hmac(ACTIVE, T, BODY);
      const bad = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
      expect(rejection({ rawBody: BODY, signatureHeader: `t=${T},v1=${bad}`, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.NoMatchingSignature,
      );
    });
  });

  describe('rule 5: ignore signature versions other than v1', () => {
    it('rule 5: a v2 entry is ignored and the v1 still verifies', () => {
      const header = `t=${T},v2=deadbeef,v1=${hmac(ACTIVE, T, BODY)},v0=whatever`;
      expect(verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(T);
    });

    it('rule 5: a header carrying only v2 is not malformed; it is rejected for lack of v1', () => {
      expect(rejection({ rawBody: BODY, signatureHeader: `t=${T},v2=${hmac(ACTIVE, T, BODY)}`, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.NoV1Signature,
      );
    });

    it('rule 5: a v2 value that would match is not accepted in place of v1', () => {
      const header = `t=${T},v1=${'0'.repeat(64)},v2=${hmac(ACTIVE, T, BODY)}`;
      expect(rejection({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.NoMatchingSignature,
      );
    });
  });

  describe('rule 6: reject on any failure', () => {
    it('rule 6: a missing header is rejected', () => {
      expect(rejection({ rawBody: BODY, signatureHeader: undefined, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.MissingHeader,
      );
      expect(rejection({ rawBody: BODY, signatureHeader: '  ', secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.MissingHeader,
      );
      expect(rejection({ rawBody: BODY, signatureHeader: [], secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.MissingHeader,
      );
    });

    it.each([
      ['no t entry', `v1=${'a'.repeat(64)}`],
      ['t not a number', `t=yesterday,v1=${'a'.repeat(64)}`],
      ['t negative', `t=-5,v1=${'a'.repeat(64)}`],
      ['t fractional', `t=1700000000.5,v1=${'a'.repeat(64)}`],
      ['t empty', `t=,v1=${'a'.repeat(64)}`],
      ['two t entries', `t=${T},t=${T},v1=${'a'.repeat(64)}`],
      ['an entry without =', `t=${T},v1`],
      ['an entry with an empty key', `t=${T},=abc`],
      ['not a list at all', 'garbage'],
      ['an empty entry', `t=${T},,v1=${'a'.repeat(64)}`],
    ])('rule 6: a malformed header is rejected (%s)', (_case, header) => {
      expect(rejection({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.MalformedHeader,
      );
    });

    it('rule 6: a header sent twice is rejected as malformed; one header in an array is read', () => {
      const header = `t=${T},v1=${hmac(ACTIVE, T, BODY)}`;
      expect(rejection({ rawBody: BODY, signatureHeader: [header, header], secrets: ACTIVE, nowSeconds: T })).toBe(
        WebhookSignatureFailure.MalformedHeader,
      );
      expect(verifier.verify({ rawBody: BODY, signatureHeader: [header], secrets: ACTIVE, nowSeconds: T })).toBe(T);
    });

    it('rule 6: spaces after commas are tolerated (not a rejection reason on their own)', () => {
      const header = `t=${T}, v2=x, v1=${hmac(ACTIVE, T, BODY)}`;
      expect(verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T })).toBe(T);
    });

    it('rule 6: the rejection message names the reason and leaks neither secret nor expected signature', () => {
      const header = `t=${T},v1=${'0'.repeat(64)}`;
      let message = '';
      try {
        verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain('no-matching-signature');
      expect(message).not.toContain(ACTIVE);
      expect(message).not.toContain(hmac(ACTIVE, T, BODY));
    });
  });

  it('a receiver without a secret is a configuration bug (RangeError), not a signature failure', () => {
    const header = `t=${T},v1=${hmac(ACTIVE, T, BODY)}`;
    expect(() => verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: [], nowSeconds: T })).toThrow(RangeError);
    expect(() => verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: '', nowSeconds: T })).toThrow(RangeError);
    expect(() => verifier.verify({ rawBody: BODY, signatureHeader: header, secrets: ACTIVE, nowSeconds: T, toleranceSeconds: -1 })).toThrow(
      RangeError,
    );
  });
});
