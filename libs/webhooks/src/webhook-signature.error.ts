/** Why a receiver rejected a callback's signature (spec 6.4 receiver rules). */
export enum WebhookSignatureFailure {
  /** No X-Service-Signature header, or an empty one. */
  MissingHeader = 'missing-header',
  /** The header is not a comma-separated list of `key=value` entries with exactly one integer `t`. */
  MalformedHeader = 'malformed-header',
  /** The header is well formed but carries no `v1` entry (other schemes such as `v2` are ignored). */
  NoV1Signature = 'no-v1-signature',
  /** `t` differs from the receiver's clock by more than the tolerance, in either direction. */
  TimestampOutsideTolerance = 'timestamp-outside-tolerance',
  /** No `v1` value equals the HMAC of the raw body under any of the receiver's secrets. */
  NoMatchingSignature = 'no-matching-signature',
}

/**
 * A callback failed signature verification. The receiver answers 400 and does not process the payload (spec 6.4 rule 6).
 * The message never contains a secret or an expected signature.
 */
export class WebhookSignatureError extends Error {
  constructor(
    readonly reason: WebhookSignatureFailure,
    detail: string,
  ) {
    super(`Webhook signature rejected (${reason}): ${detail}`);
    this.name = 'WebhookSignatureError';
  }
}
