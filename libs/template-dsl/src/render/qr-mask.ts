/**
 * QR mask selection for bwip-js, in plain JavaScript. bwip-js (BWIPP) tries all eight masks of ISO/IEC 18004 and
 * keeps the one with the lowest penalty; that choice took two thirds of a QR code's encoding time (≈ 3.5 of 5.3 ms
 * for the invoice's payment code). Here bwip-js encodes with mask 1 only, and the same choice is made from that
 * symbol: its data modules are unmasked, each mask is applied, the symbol is scored exactly as BWIPP's `evalfull`
 * scores it (while scoring the format modules are dark, the version modules and the dark module light; the first
 * lowest score wins), and the chosen
 * mask's format information is written. The result is the symbol bwip-js chooses by itself, module for module
 * (codes.spec.ts compares the two over every version and error correction level).
 */

/** The eight mask conditions (row i, column j): a data module is inverted where the condition holds. */
const MASKS: readonly ((i: number, j: number) => boolean)[] = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i + j) % 2) + ((i * j) % 3)) % 2 === 0,
];

/** The 15 format information bits (BCH(15,5), masked with 101010000010010) for error correction indicator bits and a mask. */
function formatBits(ecBits: number, mask: number): number {
  const data = (ecBits << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | (rem & 0x3ff)) ^ 0x5412;
}

/** Where each of the 15 format bits goes (two copies), as [row, column]; bit 0 is the least significant. */
function formatPositions(size: number): [number, number][][] {
  const positions: [number, number][][] = [];
  for (let bit = 0; bit < 15; bit++) {
    const first: [number, number] = bit <= 5 ? [bit, 8] : bit === 6 ? [7, 8] : bit === 7 ? [8, 8] : bit === 8 ? [8, 7] : [8, 14 - bit];
    const second: [number, number] = bit < 8 ? [8, size - 1 - bit] : [size - 15 + bit, 8];
    positions.push([first, second]);
  }
  return positions;
}

function alignmentCentres(version: number, size: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
  const centres = [6];
  for (let pos = size - 7; centres.length < count; pos -= step) centres.splice(1, 0, pos);
  return centres;
}

/** true for every function module of a QR code of `size` (finders, separators, timing, alignment, format, version, dark module). */
function functionModules(size: number): Uint8Array {
  const version = (size - 17) / 4;
  const fn = new Uint8Array(size * size);
  const mark = (i: number, j: number): void => {
    if (i >= 0 && i < size && j >= 0 && j < size) fn[i * size + j] = 1;
  };
  for (let k = 0; k < size; k++) {
    mark(6, k);
    mark(k, 6);
  }
  for (const [ci, cj] of [
    [3, 3],
    [3, size - 4],
    [size - 4, 3],
  ]) {
    for (let di = -4; di <= 4; di++) for (let dj = -4; dj <= 4; dj++) mark(ci + di, cj + dj);
  }
  const centres = alignmentCentres(version, size);
  const last = centres.length - 1;
  centres.forEach((ci, a) =>
    centres.forEach((cj, b) => {
      if ((a === 0 && b === 0) || (a === 0 && b === last) || (a === last && b === 0)) return;
      for (let di = -2; di <= 2; di++) for (let dj = -2; dj <= 2; dj++) mark(ci + di, cj + dj);
    }),
  );
  for (const copies of formatPositions(size)) for (const [i, j] of copies) mark(i, j);
  mark(size - 8, 8);
  for (const [i, j] of versionPositions(size)) mark(i, j);
  return fn;
}

/** The 2 × 18 version information modules (versions 7 and up), as [row, column]. */
function versionPositions(size: number): [number, number][] {
  if (size < 45) return [];
  const positions: [number, number][] = [];
  for (let k = 0; k < 18; k++) {
    positions.push([size - 11 + (k % 3), Math.floor(k / 3)], [Math.floor(k / 3), size - 11 + (k % 3)]);
  }
  return positions;
}

/** BWIPP's N1 (runs of 5 or more: run − 2) and N3 (1:1:3:1:1 with 4 light modules on a side: 40) of one line's run lengths, light first. */
function runPenalty(runs: number[], count: number): number {
  let score = 0;
  for (let k = 0; k < count; k++) if (runs[k] >= 5) score += runs[k] - 2;
  for (let j = 3; j <= count - 3; j += 2) {
    const centre = runs[j];
    if (centre % 3 !== 0) continue;
    const fact = Math.floor(centre / 3);
    if (runs[j - 2] !== fact || runs[j - 1] !== fact || runs[j + 1] !== fact || runs[j + 2] !== fact) continue;
    if (j === 3 || j + 4 >= count || runs[j - 3] >= 4 || runs[j + 3] >= 4) score += 40;
  }
  return score;
}

/** BWIPP's `evalfull`: the penalty of a full QR symbol (row-major, 1 dark). */
function penalty(sym: Uint8Array, size: number, runs: number[]): number {
  let score = 0;
  const lineRuns = (start: number, stride: number): number => {
    let count = 0;
    let current = 0;
    let length = 0;
    for (let k = 0; k < size; k++) {
      const v = sym[start + k * stride];
      if (v === current) length++;
      else {
        runs[count++] = length;
        current = v;
        length = 1;
      }
    }
    runs[count++] = length;
    return runPenalty(runs, count);
  };
  for (let k = 0; k < size; k++) score += lineRuns(k, size) + lineRuns(k * size, 1);
  for (let i = 1; i < size; i++) {
    for (let j = 1; j < size; j++) {
      const s = sym[i * size + j] + sym[i * size + j - 1] + sym[(i - 1) * size + j] + sym[(i - 1) * size + j - 1];
      if (s === 0 || s === 4) score += 3;
    }
  }
  let dark = 0;
  for (let k = 0; k < sym.length; k++) dark += sym[k];
  return score + Math.trunc(Math.abs((dark * 100) / (size * size) - 50) / 5) * 10;
}

/** What depends on the symbol size only: function modules, mask bits per module (bit m: mask m inverts it), format and version positions. */
type Layout = { fn: Uint8Array; maskMap: Uint8Array; format: [number, number][][]; version: [number, number][] };

/** One layout per size (at most the 40 versions); a layout is a fixed property of the size, so it never goes stale. */
const layouts = new Map<number, Layout>();

function layoutOf(size: number): Layout {
  let layout = layouts.get(size);
  if (layout === undefined) {
    const maskMap = new Uint8Array(size * size);
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        let bits = 0;
        for (let m = 0; m < 8; m++) if (MASKS[m](i, j)) bits |= 1 << m;
        maskMap[i * size + j] = bits;
      }
    }
    layout = { fn: functionModules(size), maskMap, format: formatPositions(size), version: versionPositions(size) };
    layouts.set(size, layout);
  }
  return layout;
}

/**
 * The symbol bwip-js would have chosen, from the one it drew with mask 1 (`pixs`: row-major modules, 1 dark, of a
 * full QR code `size` modules wide). Returns a new array; `pixs` is not changed. The error correction level is read
 * from the symbol's format information: BWIPP raises the level asked for when a higher one fits in the same version.
 */
export function withBestMask(pixs: readonly number[], size: number): number[] {
  const { fn, maskMap, format, version } = layoutOf(size);
  const drawn = format.reduce((bits, [[i, j]], bit) => bits | (pixs[i * size + j] << bit), 0);
  const ecBits = (drawn ^ 0x5412) >> 13;
  if (formatBits(ecBits, 0) !== drawn) throw new Error('the QR code was not drawn with mask 1');
  const base = new Uint8Array(size * size);
  // data modules back to their unmasked value (mask 1 is the first mask condition)
  for (let p = 0; p < base.length; p++) base[p] = fn[p] ? pixs[p] : pixs[p] ^ (maskMap[p] & 1);
  // BWIPP scores with the format modules dark, and the version modules and the dark module light
  for (const copies of format) for (const [i, j] of copies) base[i * size + j] = 1;
  for (const [i, j] of version) base[i * size + j] = 0;
  base[(size - 8) * size + 8] = 0;

  const runs: number[] = new Array<number>(size + 1);
  const sym = new Uint8Array(size * size);
  let best = 0;
  let bestScore = Infinity;
  for (let m = 0; m < 8; m++) {
    for (let p = 0; p < sym.length; p++) sym[p] = fn[p] ? base[p] : base[p] ^ ((maskMap[p] >> m) & 1);
    const score = penalty(sym, size, runs);
    if (score < bestScore) {
      best = m;
      bestScore = score;
    }
  }
  const out = new Array<number>(size * size);
  for (let p = 0; p < out.length; p++) out[p] = fn[p] ? base[p] : base[p] ^ ((maskMap[p] >> best) & 1);
  out[(size - 8) * size + 8] = 1;
  for (const [i, j] of version) out[i * size + j] = pixs[i * size + j];
  const bits = formatBits(ecBits, best);
  format.forEach((copies, bit) => {
    for (const [i, j] of copies) out[i * size + j] = (bits >> bit) & 1;
  });
  return out;
}
