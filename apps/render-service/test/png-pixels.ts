import { inflateSync } from 'node:zlib';

/** Decoded pixels, RGB, row by row. */
export type Pixels = { width: number; height: number; rgb: Buffer };

/**
 * Decodes the PNGs the tests look at (Chromium screenshots, pdftoppm pages): 8-bit RGB or RGBA, not interlaced.
 * Alpha is dropped (both writers give opaque pictures).
 */
export function decodePng(png: Buffer): Pixels {
  if (png.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colourType, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || (colourType !== 2 && colourType !== 6) || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colourType})`);
      channels = colourType === 2 ? 3 : 4;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? rows[y * stride + x - channels] : 0;
      const b = y > 0 ? rows[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? rows[(y - 1) * stride + x - channels] : 0;
      rows[y * stride + x] = (line[x] + unfilter(filter, a, b, c)) & 0xff;
    }
  }
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) rows.copy(rgb, i * 3, i * channels, i * channels + 3);
  return { width, height, rgb };
}

function unfilter(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4: {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default:
      throw new Error(`bad PNG filter ${filter}`);
  }
}

/** Where the ink is in a band of rows [top, bottom): the bounding box of pixels darker than near-white, and their count. */
export function inkIn(pixels: Pixels, top: number, bottom: number): { count: number; box: { left: number; top: number; right: number; bottom: number } | null } {
  let count = 0;
  let box: { left: number; top: number; right: number; bottom: number } | null = null;
  for (let y = Math.max(0, top); y < Math.min(bottom, pixels.height); y++) {
    for (let x = 0; x < pixels.width; x++) {
      const i = (y * pixels.width + x) * 3;
      if (Math.min(pixels.rgb[i], pixels.rgb[i + 1], pixels.rgb[i + 2]) >= 200) continue;
      count++;
      box = box === null ? { left: x, top: y, right: x, bottom: y } : { left: Math.min(box.left, x), top: Math.min(box.top, y), right: Math.max(box.right, x), bottom: Math.max(box.bottom, y) };
    }
  }
  return { count, box };
}

/** True when the rows [top, bottom) of both pictures are the same pixels. */
export function sameRows(a: Pixels, b: Pixels, top: number, bottom: number): boolean {
  return a.width === b.width && a.rgb.subarray(top * a.width * 3, bottom * a.width * 3).equals(b.rgb.subarray(top * b.width * 3, bottom * b.width * 3));
}
