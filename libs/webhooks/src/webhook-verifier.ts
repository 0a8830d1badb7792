import { timingSafeEqual } from 'node:crypto';
import { WebhookHeader } from '@docrender/contracts';
import { parseSignatureHeader } from './signature-header';
import { WebhookSignatureError, WebhookSignatureFailure } from './webhook-signature.error';
import { computeSignature } from './webhook-signer';

/** The usual tolerance of client libraries between `t` and the receiver's clock (spec 6.4 rule 3). */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

export type VerifyWebhookInput = {
  /** The request body exactly as received, before any JSON parsing (rule 6: verify before parsing). */
  rawBody: string | Buffer;
  /** The X-Service-Signature header value as received; Node gives `string | string[] | undefined`. */
  signatureHeader: string | readonly string[] | undefined;
  /** The receiver's signing secret(s), each exactly as shown (with the `whsec_` prefix). Any one may match. */
  secrets: string | readonly string[];
  /** Largest accepted difference between `t` and the receiver's clock, either direction. Default 300 s. */
  toleranceSeconds?: number;
  /** The receiver's clock in Unix seconds; defaults to the current time. */
  nowSeconds?: number;
};

/**
 * Receiver-side check of a callback signature, applying the receiver rules of spec 6.4:
 * 1. recompute the HMAC over the raw body; 2. accept when any v1 matches (any secret); 3. reject a `t` outside the
 * tolerance in either direction; 4. compare in constant time; 5. ignore schemes other than v1; 6. reject on any
 * failure, before the body is parsed. Shared with the client SDK: no dependency beyond node:crypto.
 */
export class WebhookVerifier {
  /**
   * @returns the verified signing time `t` (Unix seconds)
   * @throws WebhookSignatureError with the reason of the first rule that failed
   * @throws RangeError when no secret is given or the tolerance is not a non-negative number (a receiver bug, not a bad request)
   */
  verify(input: VerifyWebhookInput): number {
    const secrets = (typeof input.secrets === 'string' ? [input.secrets] : [...input.secrets]).filter((s) => s !== '');
    if (secrets.length === 0) throw new RangeError('at least one non-empty signing secret is required');
    const tolerance = input.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
    if (!Number.isFinite(tolerance) || tolerance < 0) throw new RangeError(`toleranceSeconds must be >= 0, got ${tolerance}`);
    const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);

    const header = singleHeaderValue(input.signatureHeader);
    const { timestamp, v1 } = parseSignatureHeader(header);
    if (v1.length === 0) {
      throw new WebhookSignatureError(WebhookSignatureFailure.NoV1Signature, 'the header carries no v1 signature');
    }
    if (Math.abs(now - timestamp) > tolerance) {
      throw new WebhookSignatureError(
        WebhookSignatureFailure.TimestampOutsideTolerance,
        `t=${timestamp} is ${now - timestamp} s from the receiver clock; tolerance is ${tolerance} s`,
      );
    }
    const candidates = v1.map((value) => Buffer.from(value, 'utf8'));
    for (const secret of secrets) {
      const expected = Buffer.from(computeSignature(secret, timestamp, input.rawBody), 'utf8');
      for (const candidate of candidates) {
        if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) return timestamp;
      }
    }
    throw new WebhookSignatureError(
      WebhookSignatureFailure.NoMatchingSignature,
      `none of ${v1.length} v1 signature(s) matches the body under ${secrets.length} secret(s)`,
    );
  }
}

function singleHeaderValue(header: string | readonly string[] | undefined): string {
  if (header === undefined) throw missing();
  if (typeof header !== 'string') {
    if (header.length > 1) {
      throw new WebhookSignatureError(WebhookSignatureFailure.MalformedHeader, `the header was sent ${header.length} times`);
    }
    return singleHeaderValue(header[0]);
  }
  if (header.trim() === '') throw missing();
  return header;
}

function missing(): WebhookSignatureError {
  return new WebhookSignatureError(WebhookSignatureFailure.MissingHeader, `no ${WebhookHeader.Signature} header`);
}
