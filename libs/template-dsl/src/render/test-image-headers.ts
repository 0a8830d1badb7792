import { crc32, deflateSync } from 'node:zlib';

/** Bytes of image headers for tests (image-size.spec.ts, document-caps.spec.ts, the caps' int test): not used by the compiler. */
export const u16be = (n: number): Buffer => Buffer.from([n >> 8, n & 0xff]);
export const u16le = (n: number): Buffer => Buffer.from([n & 0xff, n >> 8]);
export const u24le = (n: number): Buffer => Buffer.from([n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff]);
export const u32be = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
export const u32le = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};

/** A PNG signature and IHDR chunk of that size, with no image data: enough for its size to be read. */
export function pngHeader(width: number, height: number): Buffer {
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), u32be(13), Buffer.from('IHDR'), u32be(width), u32be(height), Buffer.from([8, 6, 0, 0, 0]), u32be(0)]);
}


/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  return Buffer.concat([u32be(data.length), Buffer.from(type, 'latin1'), data, u32be(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])))]);
}

/** A complete, valid PNG of black pixels, 1 bit grey (a 20,000 × 20,000 one is a few tens of KB). */
export function blackPng(width: number, height: number): Buffer {
  const header = Buffer.concat([u32be(width), u32be(height), Buffer.from([1, 0, 0, 0, 0])]);
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
