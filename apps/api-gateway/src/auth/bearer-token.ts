/**
 * The credential of an `Authorization: Bearer <API_KEY>` header (spec 5.1); null when the header is absent, uses
 * another scheme, or carries no single token. The scheme name is case-insensitive (RFC 9110 11.1).
 */
export function bearerToken(authorization: string | string[] | undefined): string | null {
  if (typeof authorization !== 'string') return null;
  const match = /^[Bb][Ee][Aa][Rr][Ee][Rr] +([^\s]+) *$/.exec(authorization);
  return match ? match[1] : null;
}
