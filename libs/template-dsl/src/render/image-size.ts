/**
 * The pixel size an image declares in its header, read without decoding it (issue 31 item 2): what Chromium would
 * allocate to decode it (width × height × 4 bytes), known before Chromium sees the image. PNG (IHDR), JPEG (the SOF
 * segment), GIF (the logical screen), WebP (VP8, VP8L, VP8X), AVIF (the largest `ispe` property) and SVG (the root's
 * width and height, else its viewBox, else 300 × 150 as Chromium sizes it). A header that is missing, truncated or
 * contradicts itself is an error: an image whose size cannot be read is not shown.
 */

export type ImageSize = { width: number; height: number } | { error: string };

/** Reads `length` bytes at `offset` (fewer at the end of the image). */
export type ByteReader = (offset: number, length: number) => Buffer;

/** A reader over the bytes of Base64 text, decoding only the 4-character groups asked for (the text has no whitespace). */
export function base64Reader(base64: string): { read: ByteReader; size: number } {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const size = Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
  const read: ByteReader = (offset, length) => {
    if (offset >= size || length <= 0) return Buffer.alloc(0);
    const start = Math.floor(offset / 3) * 4;
    const end = Math.ceil(Math.min(size, offset + length) / 3) * 4;
    const bytes = Buffer.from(base64.slice(start, end), 'base64');
    return bytes.subarray(offset % 3, (offset % 3) + length);
  };
  return { read, size };
}

/** A reader over bytes in memory. */
export function bufferReader(bytes: Buffer): { read: ByteReader; size: number } {
  return { read: (offset, length) => bytes.subarray(offset, offset + length), size: bytes.length };
}

const truncated = (format: string): ImageSize => ({ error: `its ${format} header is truncated` });

function sized(width: number, height: number, format: string): ImageSize {
  if (!Number.isFinite(width) || !Number.isFinite(height) || width <= 0 || height <= 0) {
    return { error: `its ${format} header declares a size of ${width} × ${height} pixels` };
  }
  return { width, height };
}

function pngSize(read: ByteReader): ImageSize {
  const head = read(0, 24);
  if (head.length < 24) return truncated('PNG');
  if (head.readUInt32BE(8) !== 13 || head.toString('latin1', 12, 16) !== 'IHDR') return { error: 'its PNG header does not start with IHDR' };
  return sized(head.readUInt32BE(16), head.readUInt32BE(20), 'PNG');
}

/** JPEG start-of-frame markers (SOF0–SOF15 but DHT C4, JPG C8 and DAC CC); they carry the frame's size. */
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
/** Segments read before the frame header at most (a real JPEG has a few: APPn, DQT, DHT). */
const JPEG_MAX_SEGMENTS = 512;

function jpegSize(read: ByteReader, size: number): ImageSize {
  let offset = 2;
  for (let segment = 0; segment < JPEG_MAX_SEGMENTS; segment++) {
    const marker = read(offset, 4);
    if (marker.length < 4) return truncated('JPEG');
    if (marker[0] !== 0xff) return { error: 'its JPEG segments are malformed' };
    const type = marker[1];
    // fill bytes before a marker
    if (type === 0xff) {
      offset++;
      continue;
    }
    // markers without a length: TEM, RSTn
    if (type === 0x01 || (type >= 0xd0 && type <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (type === 0xd9 || type === 0xda) return { error: 'its JPEG header has no frame size before the image data' };
    const length = marker.readUInt16BE(2);
    if (length < 2) return { error: 'its JPEG segments are malformed' };
    if (JPEG_SOF.has(type)) {
      const frame = read(offset + 4, 5);
      if (frame.length < 5) return truncated('JPEG');
      return sized(frame.readUInt16BE(3), frame.readUInt16BE(1), 'JPEG');
    }
    offset += 2 + length;
    if (offset >= size) return truncated('JPEG');
  }
  return { error: `its JPEG header has no frame size in its first ${JPEG_MAX_SEGMENTS} segments` };
}

function gifSize(read: ByteReader): ImageSize {
  const head = read(0, 10);
  if (head.length < 10) return truncated('GIF');
  return sized(head.readUInt16LE(6), head.readUInt16LE(8), 'GIF');
}

function webpSize(read: ByteReader): ImageSize {
  const head = read(0, 30);
  if (head.length < 16) return truncated('WebP');
  const chunk = head.toString('latin1', 12, 16);
  switch (chunk) {
    case 'VP8 ': {
      if (head.length < 30) return truncated('WebP');
      if (head[23] !== 0x9d || head[24] !== 0x01 || head[25] !== 0x2a) return { error: 'its WebP (VP8) frame header is malformed' };
      return sized(head.readUInt16LE(26) & 0x3fff, head.readUInt16LE(28) & 0x3fff, 'WebP');
    }
    case 'VP8L': {
      if (head.length < 25) return truncated('WebP');
      if (head[20] !== 0x2f) return { error: 'its WebP (VP8L) header is malformed' };
      const bits = head.readUInt32LE(21);
      return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, 'WebP');
    }
    case 'VP8X': {
      if (head.length < 30) return truncated('WebP');
      return sized(head.readUIntLE(24, 3) + 1, head.readUIntLE(27, 3) + 1, 'WebP');
    }
    default:
      return { error: `its WebP header has an unknown first chunk "${chunk.replace(/[^\x20-\x7e]/g, '?')}"` };
  }
}

/** The part of an AVIF file searched for `ispe` (image spatial extents) properties: the meta box comes first. */
const AVIF_HEAD_BYTES = 64 * 1024;

function avifSize(read: ByteReader): ImageSize {
  const head = read(0, AVIF_HEAD_BYTES);
  let best: { width: number; height: number } | null = null;
  for (let at = head.indexOf('ispe', 0, 'latin1'); at >= 0; at = head.indexOf('ispe', at + 4, 'latin1')) {
    // box: size(4) 'ispe' version+flags(4) width(4) height(4)
    if (at + 16 > head.length) return truncated('AVIF');
    const width = head.readUInt32BE(at + 8);
    const height = head.readUInt32BE(at + 12);
    if (!best || width * height > best.width * best.height) best = { width, height };
  }
  if (!best) return { error: 'its AVIF header has no image size (ispe)' };
  return sized(best.width, best.height, 'AVIF');
}

/** The part of an SVG searched for its root element. */
const SVG_HEAD_BYTES = 8 * 1024;
const SVG_UNIT_PX: Record<string, number> = { '': 1, px: 1, pt: 96 / 72, pc: 16, mm: 96 / 25.4, cm: 96 / 2.54, in: 96 };

function svgAttribute(tag: string, name: string): string | null {
  const m = new RegExp(`[\\s"']${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return m ? (m[1] ?? m[2]).trim() : null;
}

/** An SVG length in CSS pixels; null when absent, relative (%, em) or not a length. */
function svgLengthPx(text: string | null): number | null {
  if (text === null) return null;
  const m = /^([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)(px|pt|pc|mm|cm|in)?$/i.exec(text);
  return m ? Number(m[1]) * SVG_UNIT_PX[(m[2] ?? '').toLowerCase()] : null;
}

function svgSize(read: ByteReader): ImageSize {
  const text = read(0, SVG_HEAD_BYTES).toString('utf8');
  const start = text.search(/<svg[\s>]/);
  if (start < 0) return { error: `its SVG root element is not within its first ${SVG_HEAD_BYTES / 1024} KB` };
  const end = text.indexOf('>', start);
  if (end < 0) return truncated('SVG');
  const tag = text.slice(start, end);
  const box = svgAttribute(tag, 'viewBox')
    ?.split(/[\s,]+/)
    .map(Number);
  const boxSize = box && box.length === 4 && box.every(Number.isFinite) ? { width: box[2], height: box[3] } : null;
  let width = svgLengthPx(svgAttribute(tag, 'width'));
  let height = svgLengthPx(svgAttribute(tag, 'height'));
  // one side given: the other from the viewBox's proportions, as Chromium does
  if (width !== null && height === null && boxSize && boxSize.width > 0) height = (width * boxSize.height) / boxSize.width;
  if (height !== null && width === null && boxSize && boxSize.height > 0) width = (height * boxSize.width) / boxSize.height;
  if (width === null || height === null) {
    if (boxSize) ({ width, height } = boxSize);
    else ({ width, height } = { width: 300, height: 150 });
  }
  // rounded up, but not for the float error of a unit conversion (254mm is 960 px)
  return sized(Math.ceil(width - 1e-6), Math.ceil(height - 1e-6), 'SVG');
}

/** The declared pixel size of an image of a sniffed `format` (png, jpeg, gif, webp, avif, svg+xml). */
export function imageSize(format: string, read: ByteReader, size: number): ImageSize {
  switch (format) {
    case 'png':
      return pngSize(read);
    case 'jpeg':
      return jpegSize(read, size);
    case 'gif':
      return gifSize(read);
    case 'webp':
      return webpSize(read);
    case 'avif':
      return avifSize(read);
    case 'svg+xml':
      return svgSize(read);
    default:
      return { error: `the size of a ${format} image cannot be read` };
  }
}
