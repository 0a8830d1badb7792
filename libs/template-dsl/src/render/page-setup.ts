import { Length, PageBand, PageSetup, PaperSize } from '../model/template.types';
import { lengthMm } from '../style/length';

/** Paper sizes in portrait, millimetres. */
const PAPER_MM: Record<PaperSize, [number, number]> = {
  A3: [297, 420],
  A4: [210, 297],
  A5: [148, 210],
  A6: [105, 148],
  B4: [250, 353],
  B5: [176, 250],
  Letter: [215.9, 279.4],
  Legal: [215.9, 355.6],
  Tabloid: [279.4, 431.8],
  Label4x6in: [101.6, 152.4],
  Label100x150mm: [100, 150],
  EnvelopeDL: [110, 220],
  EnvelopeC5: [162, 229],
  EnvelopeC6: [114, 162],
};

const DEFAULT_MARGIN_MM = 20;
const MIN_PAGE_MM = 20;
const MAX_PAGE_MM = 5000;
/**
 * Chromium draws the header template from 20 CSS px below the top edge of the sheet, and the footer template
 * up to 20 CSS px above the bottom edge (measured with Chromium 156); a band fills the rest of its margin.
 */
const BAND_INSET_MM = Math.round(((20 * 25.4) / 96) * 1000) / 1000;

/** The content area keeps at least this much room when margins or bands are too large. */
const MIN_CONTENT_MM = 10;

export interface MarginsMm {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface PageGeometry {
  /** Sheet size as printed (already turned for landscape). */
  widthMm: number;
  heightMm: number;
  landscape: boolean;
  /** Page margins; the header and footer bands sit in the top and bottom margins. */
  marginMm: MarginsMm;
  contentWidthMm: number;
  headerHeightMm: number | null;
  footerHeightMm: number | null;
}

export interface PageSetupResult {
  geometry: PageGeometry;
  /** Non-blocking layout problems found and corrected (InvalidLayout). */
  problems: string[];
  /** What is printed other than as written: a page size outside the supported range (RenderLayoutDegraded, blocks production). */
  warnings: string[];
}

function marginOf(margins: PageSetup['margins'], side: keyof MarginsMm): Length | undefined {
  if (margins === undefined) return undefined;
  if (typeof margins === 'number' || typeof margins === 'string') return margins;
  return margins[side];
}

/** Height of a band: as given, or what its margin leaves below Chromium's inset. */
function bandHeight(band: PageBand | undefined, marginMm: number, name: string, problems: string[]): number | null {
  if (!band) return null;
  const fill = Math.max(0, Math.round((marginMm - BAND_INSET_MM) * 1000) / 1000);
  if (band.height === undefined) return fill;
  const mm = lengthMm(band.height);
  if (mm === null) {
    problems.push(`The ${name} height must be an absolute length (not a percentage); the ${name} fills the margin instead.`);
    return fill;
  }
  return mm;
}

/** Resolves page size, orientation, margins and band heights, correcting what cannot work. */
export function resolvePageSetup(page: PageSetup | undefined): PageSetupResult {
  const problems: string[] = [];
  const warnings: string[] = [];
  let [w, h] = PAPER_MM.A4;
  const size = page?.size;
  if (typeof size === 'string') {
    [w, h] = PAPER_MM[size];
  } else if (size) {
    const cw = lengthMm(size.width);
    const ch = lengthMm(size.height);
    if (cw === null || ch === null || cw < MIN_PAGE_MM || ch < MIN_PAGE_MM || cw > MAX_PAGE_MM || ch > MAX_PAGE_MM) {
      const shown = (length: Length, mm: number | null): string => (mm === null ? String(length) : `${Math.round(mm * 10) / 10} mm`);
      warnings.push(
        `page.size ${shown(size.width, cw)} × ${shown(size.height, ch)} is outside the supported range (${MIN_PAGE_MM} mm to ${MAX_PAGE_MM} mm a side, in absolute units); the document is printed on A4 instead.`,
      );
    } else {
      [w, h] = [cw, ch];
    }
  }
  // a named size is portrait unless turned; a custom size prints as written unless an orientation turns it
  const landscape = page?.orientation === undefined && typeof size === 'object' ? w > h : page?.orientation === 'landscape';
  if (landscape !== w > h) [w, h] = [h, w];

  const margin = (side: keyof MarginsMm, along: number): number => {
    const value = marginOf(page?.margins, side);
    const mm = value === undefined ? DEFAULT_MARGIN_MM : lengthMm(value, along);
    if (mm === null) {
      problems.push(`The ${side} margin is not a length; ${DEFAULT_MARGIN_MM} mm is used.`);
      return DEFAULT_MARGIN_MM;
    }
    return mm;
  };
  const marginMm: MarginsMm = { top: margin('top', h), right: margin('right', w), bottom: margin('bottom', h), left: margin('left', w) };

  const headerHeightMm = bandHeight(page?.header, marginMm.top, 'header', problems);
  const footerHeightMm = bandHeight(page?.footer, marginMm.bottom, 'footer', problems);
  const grow = (height: number | null, side: 'top' | 'bottom', name: string): void => {
    if (height === null || height + BAND_INSET_MM <= marginMm[side] + 0.001) return;
    const needed = Math.round((height + BAND_INSET_MM) * 1000) / 1000;
    problems.push(
      `The ${name} (${height} mm, drawn from ${BAND_INSET_MM} mm off the edge) does not fit in the ${side} margin (${marginMm[side]} mm); the margin grows to ${needed} mm.`,
    );
    marginMm[side] = needed;
  };
  grow(headerHeightMm, 'top', 'header');
  grow(footerHeightMm, 'bottom', 'footer');
  if (marginMm.left + marginMm.right > w - MIN_CONTENT_MM || marginMm.top + marginMm.bottom > h - MIN_CONTENT_MM) {
    problems.push(`The margins leave less than ${MIN_CONTENT_MM} mm for content; ${DEFAULT_MARGIN_MM} mm margins are used.`);
    Object.assign(marginMm, { top: DEFAULT_MARGIN_MM, right: DEFAULT_MARGIN_MM, bottom: DEFAULT_MARGIN_MM, left: DEFAULT_MARGIN_MM });
  }
  return {
    geometry: {
      widthMm: w,
      heightMm: h,
      landscape,
      marginMm,
      contentWidthMm: Math.round((w - marginMm.left - marginMm.right) * 1000) / 1000,
      headerHeightMm: headerHeightMm === null ? null : Math.min(headerHeightMm, Math.max(0, marginMm.top - BAND_INSET_MM)),
      footerHeightMm: footerHeightMm === null ? null : Math.min(footerHeightMm, Math.max(0, marginMm.bottom - BAND_INSET_MM)),
    },
    problems,
    warnings,
  };
}
