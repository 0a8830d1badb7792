/**
 * Spec 4.2: the raw PDF variant is chosen only by an Accept header that names `application/pdf` itself (a wildcard
 * such as `*\/*` or `application/*` does not count), with a non-zero quality, and not below an explicitly named
 * `application/json`. Anything else, or no header, gets the JSON envelope.
 */
export function wantsRawPdf(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  let pdf: number | null = null;
  let json: number | null = null;
  for (const range of accept.split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const qualityParameter = parameters.find((p) => /^q\s*=/.test(p));
    const quality = qualityParameter === undefined ? 1 : Number(qualityParameter.replace(/^q\s*=\s*/, ''));
    if (!Number.isFinite(quality)) continue;
    if (type === 'application/pdf') pdf = Math.max(pdf ?? 0, quality);
    if (type === 'application/json') json = Math.max(json ?? 0, quality);
  }
  return pdf !== null && pdf > 0 && (json === null || pdf >= json);
}
