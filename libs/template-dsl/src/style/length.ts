import { Length } from '../model/template.types';

/** Lengths: a number is points; a string carries its unit (pt, mm, cm, in, px, %). */

const LENGTH = /^([0-9]+(?:\.[0-9]+)?)(pt|mm|cm|in|px|%)$/;
const MM_PER_UNIT: Record<string, number> = { pt: 25.4 / 72, mm: 1, cm: 10, in: 25.4, px: 25.4 / 96 };

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** CSS text of a length; null when the value is not a length (the schema normally prevents this). */
export function lengthCss(length: Length | undefined): string | null {
  if (length === undefined) return null;
  if (typeof length === 'number') return Number.isFinite(length) && length >= 0 ? `${round(length)}pt` : null;
  const m = LENGTH.exec(length);
  return m ? `${m[1]}${m[2]}` : null;
}

/** Millimetres of a length; percentages are taken of `percentOfMm` (null when there is none). */
export function lengthMm(length: Length | undefined, percentOfMm: number | null = null): number | null {
  if (length === undefined) return null;
  if (typeof length === 'number') return Number.isFinite(length) && length >= 0 ? round(length * MM_PER_UNIT.pt) : null;
  const m = LENGTH.exec(length);
  if (!m) return null;
  const n = Number(m[1]);
  if (m[2] === '%') return percentOfMm === null ? null : round((n / 100) * percentOfMm);
  return round(n * MM_PER_UNIT[m[2]]);
}

/** CSS pixels (96 per inch) of a millimetre length. */
export function mmToPx(mm: number): number {
  return Math.round((mm / 25.4) * 96);
}
