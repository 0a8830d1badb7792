import type { CallbackBody } from '@docrender/contracts';
import { MalformedCallbackError, parseCallback, WebhookVerifier } from '@docrender/webhooks';
import { JobState, WebhookEvent, WebhookHeader } from '@docrender/contracts/values';

/** Request headers as Node's `req.headers` (lower-case names) or a fetch `Headers` object. */
export type CallbackHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export type ReadCallbackInput = {
  /** The request body exactly as received (before any JSON parsing): the signature covers these bytes. */
  rawBody: string | Buffer;
  headers: CallbackHeaders;
  /** Your webhook signing secret(s) as shown (`whsec_…`); during a rotation give the new and the previous one. */
  secrets: string | readonly string[];
  /** Largest accepted distance between the signature's `t` and this clock, either direction. Default 300 s. */
  toleranceSeconds?: number;
  /** This machine's clock in Unix seconds (for tests); default now. */
  nowSeconds?: number;
};

/** A verified, parsed callback: progress (2.10) or completion (2.11), with its delivery headers. */
export type ReceivedCallback = CallbackBody & {
  /** X-Service-Event: `render.progress`, `render.completed`, `render.failed` (or a newer value), null when absent. */
  event: string | null;
  /** X-Service-Delivery (spec 6.2, on every callback): stable across retries of one delivery; deduplicate on it. */
  deliveryId: string;
  /** The verified signing time `t` (Unix seconds). */
  signedAt: number;
};

const verifier = new WebhookVerifier();

/**
 * Verifies a callback's signature with the shared verifier (spec 6.4 receiver rules; verify before parsing), then
 * parses it into a progress or completion callback. Answer 400 and drop the request on either exception.
 * @throws WebhookSignatureError (from `@docrender/webhooks`, re-exported) when the signature does not verify
 * @throws MalformedCallbackError when the verified body is neither shape, contradicts a known X-Service-Event, or
 *   comes without X-Service-Delivery (the service sends it on every callback; without it nothing can be deduplicated)
 */
export function readCallback(input: ReadCallbackInput): ReceivedCallback {
  const signedAt = verifier.verify({
    rawBody: input.rawBody,
    signatureHeader: header(input.headers, WebhookHeader.Signature) ?? undefined,
    secrets: input.secrets,
    toleranceSeconds: input.toleranceSeconds,
    nowSeconds: input.nowSeconds,
  });
  const callback = parseCallback(input.rawBody);
  const event = single(header(input.headers, WebhookHeader.Event));
  const expected = expectedEvent(callback);
  const known: readonly string[] = Object.values(WebhookEvent);
  if (event !== null && known.includes(event) && event !== expected) {
    throw new MalformedCallbackError(`X-Service-Event is ${event} but the body is a ${callback.kind} callback (${expected})`);
  }
  const deliveryId = single(header(input.headers, WebhookHeader.Delivery));
  if (deliveryId === null || deliveryId === '') throw new MalformedCallbackError(`the callback has no ${WebhookHeader.Delivery} header (spec 6.2)`);
  return { ...callback, event, deliveryId, signedAt };
}

function expectedEvent(callback: CallbackBody): WebhookEvent {
  if (callback.kind === 'progress') return WebhookEvent.Progress;
  return callback.body.state === JobState.Failed ? WebhookEvent.Failed : WebhookEvent.Completed;
}

function header(headers: CallbackHeaders, name: string): string | readonly string[] | null {
  if (headers instanceof Headers) return headers.get(name);
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return null;
}

function single(value: string | readonly string[] | null): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? value : (value[0] ?? null);
}
