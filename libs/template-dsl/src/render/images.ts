import { base64Reader, imageSize } from './image-size';

/**
 * Image references. The library does no network I/O: the render service fetches what
 * `imageReferencesOf` lists (https URLs, http when allowed, `asset:<name>` organisation assets) and hands the
 * results to `compileDocument` in `images`, keyed by the same reference text. Data URIs are used as given,
 * once checked to really be images.
 */

export type ImageResolution = { dataUri: string } | { error: string };

export type ImageReference =
  | { kind: 'data'; dataUri: string }
  | { kind: 'remote'; reference: string; scheme: 'https' | 'http' }
  | { kind: 'asset'; reference: string }
  | { kind: 'invalid'; reason: string };

const ASSET = /^asset:([A-Za-z0-9][A-Za-z0-9._/-]{0,199})$/;

/**
 * The reference of an organisation asset embedded as an attachment (`attachments[].asset`): listed with the image
 * references and resolved by the same caller, which hands the file back unsniffed as a Base64 data URI. Null when the
 * name is not an asset name.
 */
export function attachmentAssetReference(name: string): string | null {
  return ASSET.test(`asset:${name}`) ? `attachment:asset:${name}` : null;
}

export function classifyImageReference(text: string): ImageReference {
  const ref = text.trim();
  if (ref.length === 0) return { kind: 'invalid', reason: 'the image source is empty' };
  if (/^data:/i.test(ref)) return { kind: 'data', dataUri: ref };
  if (/^asset:/i.test(ref)) {
    return ASSET.test(ref) ? { kind: 'asset', reference: ref } : { kind: 'invalid', reason: `"${ref.slice(0, 80)}" is not a valid asset name` };
  }
  if (/^https?:\/\//i.test(ref)) {
    let url: URL;
    try {
      url = new URL(ref);
    } catch {
      return { kind: 'invalid', reason: `"${ref.slice(0, 80)}" is not a valid URL` };
    }
    if (url.username || url.password) return { kind: 'invalid', reason: 'image URLs must not carry credentials' };
    return { kind: 'remote', reference: ref, scheme: url.protocol === 'https:' ? 'https' : 'http' };
  }
  return { kind: 'invalid', reason: `"${ref.slice(0, 80)}" is not a data:image URI, an https URL or asset:<name>` };
}

const IMAGE_TYPES = ['png', 'jpeg', 'gif', 'webp', 'avif', 'svg+xml'];
const DATA_URI = /^data:image\/([a-z+]+)((?:;[a-z-]+=[A-Za-z0-9._-]+)*)(;base64)?,(.*)$/is;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function sniff(bytes: Buffer): string | null {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 6 && bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (bytes.length >= 12 && bytes.subarray(4, 8).toString('latin1') === 'ftyp' && /^avi[fs]/.test(bytes.subarray(8, 12).toString('latin1'))) return 'avif';
  const text = bytes.toString('utf8').replace(/^\ufeff/, '').trimStart();
  if ((text.startsWith('<?xml') || text.startsWith('<svg') || text.startsWith('<!--')) && /<svg[\s>]/.test(text)) return 'svg+xml';
  return null;
}

/**
 * Checks that a data URI holds an image (by its type and first bytes) and returns it in Base64 form with the pixel size
 * its header declares (image-size.ts); returns a reason when it does not, or when that size cannot be read. Images are
 * shown through <img> and CSS backgrounds, where an SVG cannot run script or load anything.
 */
export function checkImageDataUri(dataUri: string): { ok: true; dataUri: string; width: number; height: number } | { ok: false; reason: string } {
  const m = DATA_URI.exec(dataUri);
  if (!m) return { ok: false, reason: 'it is not a data:image/… URI' };
  const type = m[1].toLowerCase() === 'jpg' ? 'jpeg' : m[1].toLowerCase();
  if (!IMAGE_TYPES.includes(type)) return { ok: false, reason: `image/${type} is not a supported image type (PNG, JPEG, GIF, WebP, AVIF, SVG)` };
  let base64: string;
  if (m[3]) {
    base64 = m[4].replace(/\s+/g, '');
    if (!BASE64.test(base64)) return { ok: false, reason: 'its Base64 data is malformed' };
  } else {
    try {
      base64 = Buffer.from(decodeURIComponent(m[4]), 'utf8').toString('base64');
    } catch {
      return { ok: false, reason: 'its percent-encoded data is malformed' };
    }
  }
  const head = Buffer.from(base64.slice(0, type === 'svg+xml' ? 1400 : 24), 'base64');
  const actual = sniff(head);
  if (!actual) return { ok: false, reason: `its content is not a ${type === 'svg+xml' ? 'SVG' : type.toUpperCase()} image` };
  const { read, size } = base64Reader(base64);
  const declared = imageSize(actual, read, size);
  if ('error' in declared) return { ok: false, reason: declared.error };
  return { ok: true, dataUri: `data:image/${actual};base64,${base64}`, width: declared.width, height: declared.height };
}
