/** A blob key the stores refuse: empty, too long, absolute, with a backslash, a control character, or an empty, `.` or `..` segment. */
export class InvalidBlobKeyError extends Error {
  constructor(readonly key: string, reason: string) {
    super(`invalid blob key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidBlobKeyError';
  }
}

const MAX_KEY_BYTES = 1024;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Blob keys are `/`-separated paths such as `organisations/<id>/documents/<id>.pdf`. Where each kind is made:
 * rendered documents and render inputs in libs/rendering's blob-keys.ts; font files and assets in
 * libs/organisation-resources, font-family-registration.ts (`organisations/<id>/fonts/…`) and organisation-assets.ts
 * (`orgs/<id>/assets/…`, a prefix of its own that stored assets keep). Both stores accept the same keys, so a key that works in one-process
 * mode works against S3 and cannot climb out of the filesystem store's root.
 */
export function assertValidBlobKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidBlobKeyError(String(key), 'empty');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw new InvalidBlobKeyError(key, `longer than ${MAX_KEY_BYTES} bytes`);
  if (CONTROL_CHARACTER.test(key)) throw new InvalidBlobKeyError(key, 'contains a control character');
  if (key.includes('\\')) throw new InvalidBlobKeyError(key, 'contains a backslash');
  if (key.startsWith('/')) throw new InvalidBlobKeyError(key, 'starts with /');
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw new InvalidBlobKeyError(key, `has an empty, '.' or '..' segment`);
  }
}
