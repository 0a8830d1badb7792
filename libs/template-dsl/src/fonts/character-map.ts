import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { brotliDecompressSync, inflateSync } from 'node:zlib';

/**
 * The characters a font can draw: the code points its `cmap` table maps to a glyph other than .notdef, read from the
 * OpenType specification's table layouts (sfnt `OTTO`/TrueType, collections `ttcf`, WOFF and WOFF2 wrappers). Only the
 * table directory and the `cmap` table are read: a 20 MB CJK collection costs a few small reads, not the whole file.
 */
export class CharacterSet {
  /** One bit per code point U+0000–U+10FFFF. */
  private readonly bits = new Uint32Array(0x110000 >>> 5);

  has(codePoint: number): boolean {
    return codePoint >= 0 && codePoint < 0x110000 && (this.bits[codePoint >>> 5] & (1 << (codePoint & 31))) !== 0;
  }

  add(codePoint: number): void {
    if (codePoint >= 0 && codePoint < 0x110000) this.bits[codePoint >>> 5] |= 1 << (codePoint & 31);
  }

  addRange(first: number, last: number): void {
    for (let c = first; c <= last && c < 0x110000; c++) this.add(c);
  }

  addAll(other: CharacterSet): void {
    for (let i = 0; i < this.bits.length; i++) this.bits[i] |= other.bits[i];
  }
}

/** Reads `length` bytes at `offset` of a font file (a file descriptor, or the whole file in memory). */
type ByteSource = (offset: number, length: number) => Buffer;

const tag = (data: Buffer, at: number): string => data.toString('latin1', at, at + 4);

/** The code points of one `cmap` table: every Unicode subtable of format 4 or 12 (others are not Unicode maps). */
function readCmap(cmap: Buffer, into: CharacterSet): void {
  const count = cmap.readUInt16BE(2);
  const read = new Set<number>();
  for (let i = 0; i < count; i++) {
    const platform = cmap.readUInt16BE(4 + i * 8);
    const encoding = cmap.readUInt16BE(6 + i * 8);
    const offset = cmap.readUInt32BE(8 + i * 8);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode || read.has(offset) || offset + 4 > cmap.length) continue;
    read.add(offset);
    const format = cmap.readUInt16BE(offset);
    if (format === 4) readFormat4(cmap, offset, into);
    else if (format === 12) readFormat12(cmap, offset, into);
  }
}

/** Segment mapping to delta values (BMP). */
function readFormat4(cmap: Buffer, at: number, into: CharacterSet): void {
  const segments = cmap.readUInt16BE(at + 6) >>> 1;
  const ends = at + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let s = 0; s < segments; s++) {
    const end = cmap.readUInt16BE(ends + s * 2);
    const start = cmap.readUInt16BE(starts + s * 2);
    const delta = cmap.readUInt16BE(deltas + s * 2);
    const rangeOffsetAt = rangeOffsets + s * 2;
    const rangeOffset = cmap.readUInt16BE(rangeOffsetAt);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let glyph: number;
      if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
      else {
        const glyphAt = rangeOffsetAt + rangeOffset + (c - start) * 2;
        if (glyphAt + 2 > cmap.length) break;
        const index = cmap.readUInt16BE(glyphAt);
        glyph = index === 0 ? 0 : (index + delta) & 0xffff;
      }
      if (glyph !== 0) into.add(c);
    }
  }
}

/** Segmented coverage (all planes). */
function readFormat12(cmap: Buffer, at: number, into: CharacterSet): void {
  const groups = cmap.readUInt32BE(at + 12);
  for (let g = 0; g < groups; g++) {
    const group = at + 16 + g * 12;
    if (group + 12 > cmap.length) break;
    const first = cmap.readUInt32BE(group);
    const last = cmap.readUInt32BE(group + 4);
    const glyph = cmap.readUInt32BE(group + 8);
    into.addRange(glyph === 0 ? first + 1 : first, last);
  }
}

/** The `cmap` of the sfnt font whose table directory starts at `at`, or null when it has none. */
function sfntCmap(read: ByteSource, at: number): Buffer | null {
  const tables = read(at + 4, 2).readUInt16BE(0);
  const directory = read(at + 12, tables * 16);
  for (let i = 0; i < tables; i++) {
    if (tag(directory, i * 16) !== 'cmap') continue;
    return read(directory.readUInt32BE(i * 16 + 8), directory.readUInt32BE(i * 16 + 12));
  }
  return null;
}

/** The `cmap` tables of a TrueType/OpenType font or of every font of a collection. */
function sfntCmaps(read: ByteSource): Buffer[] {
  const head = read(0, 12);
  if (tag(head, 0) !== 'ttcf') return [sfntCmap(read, 0)].filter((c): c is Buffer => c !== null);
  const fonts = head.readUInt32BE(8);
  const offsets = read(12, fonts * 4);
  const out: Buffer[] = [];
  for (let i = 0; i < fonts; i++) {
    const cmap = sfntCmap(read, offsets.readUInt32BE(i * 4));
    if (cmap) out.push(cmap);
  }
  return out;
}

/** WOFF 1.0: each table zlib-compressed on its own (or stored when that is not smaller). */
function woffCmap(data: Buffer): Buffer | null {
  const tables = data.readUInt16BE(12);
  for (let i = 0; i < tables; i++) {
    const entry = 44 + i * 20;
    if (tag(data, entry) !== 'cmap') continue;
    const offset = data.readUInt32BE(entry + 4);
    const compressed = data.readUInt32BE(entry + 8);
    const original = data.readUInt32BE(entry + 12);
    const bytes = data.subarray(offset, offset + compressed);
    return compressed < original ? inflateSync(bytes) : bytes;
  }
  return null;
}

/** WOFF2's table tags by index (flags & 63); 63 means the tag follows. Only the ones read here are named. */
const WOFF2_CMAP = 0;
const WOFF2_GLYF = 10;
const WOFF2_LOCA = 11;

function base128(data: Buffer, at: { offset: number }): number {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = data[at.offset++];
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  throw new Error('bad UIntBase128 in WOFF2 table directory');
}

/**
 * WOFF2: one Brotli stream holds every table in directory order; `cmap` is never transformed. A collection
 * (flavor `ttcf`) is not read (null).
 */
function woff2Cmap(data: Buffer): Buffer | null {
  if (tag(data, 4) === 'ttcf') return null;
  const tables = data.readUInt16BE(12);
  const compressedLength = data.readUInt32BE(20);
  const at = { offset: 48 };
  let cmapAt = -1;
  let cmapLength = 0;
  let streamOffset = 0;
  for (let i = 0; i < tables; i++) {
    const flags = data[at.offset++];
    const index = flags & 63;
    const transform = flags >>> 6;
    let name: string | number = index;
    if (index === 63) {
      name = tag(data, at.offset);
      at.offset += 4;
    }
    const original = base128(data, at);
    const glyfOrLoca = name === WOFF2_GLYF || name === WOFF2_LOCA || name === 'glyf' || name === 'loca';
    const transformed = glyfOrLoca ? transform === 0 : transform !== 0;
    const length = transformed ? base128(data, at) : original;
    if (name === WOFF2_CMAP || name === 'cmap') {
      cmapAt = streamOffset;
      cmapLength = length;
    }
    streamOffset += length;
  }
  if (cmapAt < 0) return null;
  const stream = brotliDecompressSync(data.subarray(at.offset, at.offset + compressedLength));
  return stream.subarray(cmapAt, cmapAt + cmapLength);
}

/** The characters of a font file in memory (TrueType, OpenType, a collection, WOFF or WOFF2); null when it is none of them. */
export function characterSetOfData(data: Buffer): CharacterSet | null {
  if (data.length < 12) return null;
  const signature = tag(data, 0);
  let cmaps: Buffer[];
  if (signature === 'wOFF') cmaps = [woffCmap(data)].filter((c): c is Buffer => c !== null);
  else if (signature === 'wOF2') cmaps = [woff2Cmap(data)].filter((c): c is Buffer => c !== null);
  else if (signature === 'ttcf' || signature === 'OTTO' || signature === 'true' || data.readUInt32BE(0) === 0x00010000) {
    cmaps = sfntCmaps((offset, length) => data.subarray(offset, offset + length));
  } else return null;
  if (cmaps.length === 0) return null;
  const set = new CharacterSet();
  for (const cmap of cmaps) readCmap(cmap, set);
  return set;
}

/**
 * The characters of a font file on disk, into `into`: for sfnt fonts and collections only their table directories and
 * `cmap` tables are read; a WOFF or WOFF2 file is read whole (they are small).
 */
export function characterSetOfFile(file: string, into: CharacterSet = new CharacterSet()): CharacterSet {
  const fd = openSync(file, 'r');
  let wrapped = false;
  try {
    const read: ByteSource = (offset, length) => {
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, offset);
      return buffer;
    };
    const signature = tag(read(0, 4), 0);
    wrapped = signature === 'wOFF' || signature === 'wOF2';
    if (!wrapped) for (const cmap of sfntCmaps(read)) readCmap(cmap, into);
  } finally {
    closeSync(fd);
  }
  if (wrapped) {
    const set = characterSetOfData(readFileSync(file));
    if (set) into.addAll(set);
  }
  return into;
}
