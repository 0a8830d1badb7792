import { createHmac } from 'node:crypto';
import { formatSignatureHeader } from './signature-header';

/**
 * The secrets that sign one attempt. `previous` is present only while the rotation grace of spec 6.4 runs:
 * the caller decides that (see `signingSecretsAt`); the signer signs with whatever it is given.
 */
export type SigningSecrets = {
  active: string;
  previous?: string | null;
};

/**
 * HMAC-SHA256 keyed with the secret string exactly as shown to the organisation (`whsec_` prefix included) over
 * `<t>.<raw body>`, lowercase hex (spec 6.4). The raw body is hashed byte for byte: a string as UTF-8, a Buffer as is.
 */
export function computeSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest('hex');
}

/** Signs callback attempts (sender side). Each attempt is signed afresh with the time it is sent (spec 6.3 rule 5). */
export class WebhookSigner {
  /**
   * The X-Service-Signature value for one attempt: `t=<unix>,v1=<active>` and, while a previous secret is given,
   * `,v1=<previous>` (active first, spec 6.4).
   * @param rawBody the exact bytes that will be sent as the request body
   * @param nowSeconds the signing time in Unix seconds; defaults to the current clock
   */
  sign(rawBody: string | Buffer, secrets: SigningSecrets, nowSeconds: number = Math.floor(Date.now() / 1000)): string {
    if (!Number.isSafeInteger(nowSeconds) || nowSeconds < 0) {
      throw new RangeError(`nowSeconds must be a whole number of Unix seconds, got ${nowSeconds}`);
    }
    if (secrets.active === '') throw new RangeError('the active signing secret is empty');
    const signatures = [computeSignature(secrets.active, nowSeconds, rawBody)];
    if (secrets.previous !== undefined && secrets.previous !== null && secrets.previous !== '') {
      signatures.push(computeSignature(secrets.previous, nowSeconds, rawBody));
    }
    return formatSignatureHeader(nowSeconds, signatures);
  }
}
