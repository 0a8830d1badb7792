import { WebhookSignatureError, WebhookSignatureFailure } from './webhook-signature.error';

/** The signature scheme this service signs with and receivers check (spec 6.4). */
export const SIGNATURE_SCHEME = 'v1';

/** The parts of an X-Service-Signature header that matter to a receiver. */
export type ParsedSignatureHeader = {
  /** Unix seconds when the attempt was signed. */
  timestamp: number;
  /** Every `v1` value in header order; entries of other schemes (`v2=`, …) are left out. */
  v1: string[];
};

/** `t=<unix seconds>,v1=<hex>[,v1=<hex>…]` (spec 6.2). */
export function formatSignatureHeader(timestamp: number, v1Signatures: readonly string[]): string {
  return [`t=${timestamp}`, ...v1Signatures.map((s) => `${SIGNATURE_SCHEME}=${s}`)].join(',');
}

/**
 * Reads an X-Service-Signature header. Entries are `key=value` separated by commas (spaces around entries are
 * tolerated); exactly one `t` holding a whole number of seconds is required; unknown keys are ignored, so a `v2=`
 * entry is not malformed (spec 6.4 rule 5). A header without any `v1` parses (the verifier reports it as NoV1Signature).
 */
export function parseSignatureHeader(header: string): ParsedSignatureHeader {
  let timestamp: number | undefined;
  const v1: string[] = [];
  for (const rawEntry of header.split(',')) {
    const entry = rawEntry.trim();
    const eq = entry.indexOf('=');
    if (eq <= 0) throw malformed(`entry '${abbreviate(entry)}' is not key=value`);
    const key = entry.slice(0, eq);
    const value = entry.slice(eq + 1);
    if (key === 't') {
      if (timestamp !== undefined) throw malformed('more than one t entry');
      if (!/^\d{1,15}$/.test(value)) throw malformed(`t '${abbreviate(value)}' is not a whole number of seconds`);
      timestamp = Number(value);
    } else if (key === SIGNATURE_SCHEME) {
      v1.push(value);
    }
  }
  if (timestamp === undefined) throw malformed('no t entry');
  return { timestamp, v1 };
}

function malformed(detail: string): WebhookSignatureError {
  return new WebhookSignatureError(WebhookSignatureFailure.MalformedHeader, detail);
}

function abbreviate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
