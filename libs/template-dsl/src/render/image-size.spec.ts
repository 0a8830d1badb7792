import { base64Reader, bufferReader, imageSize } from './image-size';
import { checkImageDataUri } from './images';
import { blackPng, pngHeader, u16be, u16le, u24le, u32be, u32le } from './test-image-headers';

/** Image headers built byte by byte: what the size readers see, real or lying (issue 31 item 2). */

function jpeg(width: number, height: number, sof = 0xc0): Buffer {
  const app0 = Buffer.concat([Buffer.from([0xff, 0xe0]), u16be(16), Buffer.from('JFIF\0'), Buffer.alloc(9)]);
  // an APP1 (Exif) segment of odd length, so the frame header is at an offset that is not a multiple of 3
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1]), u16be(2 + 1001), Buffer.alloc(1001, 0x41)]);
  const dqt = Buffer.concat([Buffer.from([0xff, 0xdb]), u16be(67), Buffer.alloc(65)]);
  const sofSegment = Buffer.concat([Buffer.from([0xff, sof]), u16be(17), Buffer.from([8]), u16be(height), u16be(width), Buffer.from([3]), Buffer.alloc(9)]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, app1, Buffer.from([0xff]), dqt, sofSegment, Buffer.from([0xff, 0xda]), u16be(8), Buffer.alloc(6), Buffer.from([0xff, 0xd9])]);
}

function gif(width: number, height: number): Buffer {
  return Buffer.concat([Buffer.from('GIF89a'), u16le(width), u16le(height), Buffer.from([0, 0, 0]), Buffer.from(';')]);
}

function riff(chunk: string, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from('RIFF'), u32le(4 + 8 + payload.length), Buffer.from('WEBP'), Buffer.from(chunk), u32le(payload.length), payload]);
}

const webpLossy = (width: number, height: number): Buffer =>
  riff('VP8 ', Buffer.concat([Buffer.from([0x10, 0x02, 0x00]), Buffer.from([0x9d, 0x01, 0x2a]), u16le(width), u16le(height), Buffer.alloc(8)]));
const webpLossless = (width: number, height: number): Buffer =>
  riff('VP8L', Buffer.concat([Buffer.from([0x2f]), u32le(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14)), Buffer.alloc(8)]));
const webpExtended = (width: number, height: number): Buffer => riff('VP8X', Buffer.concat([Buffer.alloc(4), u24le(width - 1), u24le(height - 1)]));

function avif(...sizes: [number, number][]): Buffer {
  const ftyp = Buffer.concat([u32be(20), Buffer.from('ftypavif'), u32be(0), Buffer.from('mif1')]);
  const ispe = sizes.map(([w, h]) => Buffer.concat([u32be(20), Buffer.from('ispe'), u32be(0), u32be(w), u32be(h)]));
  return Buffer.concat([ftyp, u32be(8 + 20 * ispe.length), Buffer.from('meta'), ...ispe]);
}

const svg = (root: string): Buffer => Buffer.from(`<?xml version="1.0"?>\n${root}<rect width="1" height="1"/></svg>`);

type Row = [name: string, format: string, bytes: Buffer, expected: { width: number; height: number } | RegExp];

const TABLE: Row[] = [
  ['PNG', 'png', pngHeader(640, 480), { width: 640, height: 480 }],
  ['PNG of 20,000 × 20,000 (header only)', 'png', pngHeader(20000, 20000), { width: 20000, height: 20000 }],
  ['PNG truncated in its IHDR', 'png', pngHeader(640, 480).subarray(0, 20), /PNG header is truncated/],
  ['PNG whose first chunk is not IHDR', 'png', Buffer.concat([pngHeader(1, 1).subarray(0, 12), Buffer.from('IDAT'), Buffer.alloc(12)]), /does not start with IHDR/],
  ['PNG that says it is 0 pixels wide', 'png', pngHeader(0, 480), /declares a size of 0 × 480/],
  ['JPEG (baseline, behind APP0, APP1, a fill byte and DQT)', 'jpeg', jpeg(4000, 3000), { width: 4000, height: 3000 }],
  ['JPEG (progressive)', 'jpeg', jpeg(65535, 65535, 0xc2), { width: 65535, height: 65535 }],
  ['JPEG cut before its frame header', 'jpeg', jpeg(4000, 3000).subarray(0, 600), /JPEG header is truncated/],
  ['JPEG whose image data comes before any frame header', 'jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 8, 0, 0, 0, 0, 0, 0]), /no frame size before the image data/],
  ['JPEG with garbage where a marker belongs', 'jpeg', Buffer.from([0xff, 0xd8, 0x12, 0x34, 0, 8]), /segments are malformed/],
  ['JPEG with a segment length below 2', 'jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 1, 0, 0]), /segments are malformed/],
  ['GIF', 'gif', gif(320, 200), { width: 320, height: 200 }],
  ['GIF truncated', 'gif', gif(320, 200).subarray(0, 8), /GIF header is truncated/],
  ['GIF of 0 × 0', 'gif', gif(0, 0), /declares a size of 0 × 0/],
  ['WebP lossy (VP8)', 'webp', webpLossy(1024, 768), { width: 1024, height: 768 }],
  ['WebP lossless (VP8L)', 'webp', webpLossless(16384, 100), { width: 16384, height: 100 }],
  ['WebP extended (VP8X)', 'webp', webpExtended(16777216, 2), { width: 16777216, height: 2 }],
  ['WebP with a broken VP8 start code', 'webp', Buffer.concat([webpLossy(10, 10).subarray(0, 23), Buffer.from([0, 0, 0]), Buffer.alloc(4)]), /VP8\) frame header is malformed/],
  ['WebP with an unknown chunk', 'webp', riff('ABCD', Buffer.alloc(14)), /unknown first chunk "ABCD"/],
  ['WebP truncated', 'webp', webpExtended(10, 10).subarray(0, 26), /WebP header is truncated/],
  ['AVIF', 'avif', avif([1920, 1080]), { width: 1920, height: 1080 }],
  ['AVIF with a thumbnail: the larger ispe counts', 'avif', avif([160, 90], [30000, 30000]), { width: 30000, height: 30000 }],
  ['AVIF without ispe', 'avif', avif(), /no image size \(ispe\)/],
  ['AVIF cut inside its ispe', 'avif', avif([1920, 1080]).subarray(0, 40), /AVIF header is truncated/],
  ['SVG with width and height in px', 'svg+xml', svg('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100px">'), { width: 200, height: 100 }],
  ['SVG in millimetres', 'svg+xml', svg("<svg xmlns='http://www.w3.org/2000/svg' width='254mm' height='1in'>"), { width: 960, height: 96 }],
  ['SVG sized by its viewBox', 'svg+xml', svg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20000 20000">'), { width: 20000, height: 20000 }],
  ['SVG with a width and a viewBox', 'svg+xml', svg('<svg xmlns="http://www.w3.org/2000/svg" width="400" viewBox="0,0,200,50">'), { width: 400, height: 100 }],
  ['SVG with percentages and a viewBox', 'svg+xml', svg('<svg width="100%" height="100%" viewBox="0 0 640 480" xmlns="http://www.w3.org/2000/svg">'), { width: 640, height: 480 }],
  ['SVG without a size (Chromium: 300 × 150)', 'svg+xml', svg('<svg xmlns="http://www.w3.org/2000/svg">'), { width: 300, height: 150 }],
  ['SVG claiming 1e9 × 1e9 pixels', 'svg+xml', svg('<svg xmlns="http://www.w3.org/2000/svg" width="1e9" height="1e9">'), { width: 1e9, height: 1e9 }],
  ['SVG whose root is past its first 8 KB', 'svg+xml', Buffer.from(`<!--${'x'.repeat(9000)}--><svg width="1" height="1"></svg>`), /root element is not within its first 8 KB/],
  ['SVG whose root tag never ends', 'svg+xml', Buffer.from('<svg width="1" height="1"'), /SVG header is truncated/],
];

describe('image sizes read from the header, before Chromium decodes the image (issue 31 item 2)', () => {
  it.each(TABLE)('%s', (_name, format, bytes, expected) => {
    const fromBuffer = bufferReader(bytes);
    const fromBase64 = base64Reader(bytes.toString('base64'));
    const size = imageSize(format, fromBuffer.read, fromBuffer.size);
    // the Base64 reader decodes only the groups asked for and reads the same bytes
    expect(imageSize(format, fromBase64.read, fromBase64.size)).toEqual(size);
    if (expected instanceof RegExp) expect(size).toEqual({ error: expect.stringMatching(expected) });
    else expect(size).toEqual(expected);
  });

  it('reads a whole PNG and says so through checkImageDataUri', () => {
    const dataUri = `data:image/png;base64,${blackPng(37, 11).toString('base64')}`;
    expect(checkImageDataUri(dataUri)).toMatchObject({ ok: true, width: 37, height: 11 });
  });

  it('checkImageDataUri refuses an image whose size cannot be read, with the reason', () => {
    const dataUri = `data:image/jpeg;base64,${jpeg(10, 10).subarray(0, 300).toString('base64')}`;
    expect(checkImageDataUri(dataUri)).toEqual({ ok: false, reason: 'its JPEG header is truncated' });
  });

  it('the Base64 reader reads at every offset and length as the bytes are', () => {
    const bytes = Buffer.from(Array.from({ length: 50 }, (_, i) => (i * 37) % 256));
    for (const trim of [0, 1, 2]) {
      const cut = bytes.subarray(0, bytes.length - trim);
      const { read, size } = base64Reader(cut.toString('base64'));
      expect(size).toBe(cut.length);
      for (let offset = 0; offset < cut.length + 2; offset++) {
        for (const length of [1, 2, 3, 4, 7]) expect(read(offset, length)).toEqual(cut.subarray(offset, offset + length));
      }
    }
  });
});
