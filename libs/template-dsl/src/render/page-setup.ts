import { Length, PageBand, PageSetup, PaperSize } from '../model/template.types';
import { lengthMm } from '../style/length';

/** Paper sizes in portrait, millimetres. */
const PAPER_MM: Record<PaperSize, [number, number]> = {
  A3: [297, 420],
  A4: [210, 297],
  A5: [148, 210],
  Letter: [215.9, 279.4],
  Legal: [215.9, 355.6],
};

const DEFAULT_MARGIN_MM = 20;
const MIN_PAGE_MM = 20;
const MAX_PAGE_MM = 5000;
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
}

function marginOf(margins: PageSetup['margins'], side: keyof MarginsMm): Length | undefined {
  if (margins === undefined) return undefined;
  if (typeof margins === 'number' || typeof margins === 'string') return margins;
  return margins[side];
}

function bandHeight(band: PageBand | undefined, marginMm: number, name: string, problems: string[]): number | null {
  if (!band) return null;
  if (band.height === undefined) return marginMm;
  const mm = lengthMm(band.height);
  if (mm === null) {
    problems.push(`The ${name} height must be an absolute length (not a percentage); the ${name} fills the margin instead.`);
    return marginMm;
  }
  return mm;
}

/** Resolves page size, orientation, margins and band heights, correcting what cannot work. */
export function resolvePageSetup(page: PageSetup | undefined): PageSetupResult {
  const problems: string[] = [];
  let [w, h] = PAPER_MM.A4;
  const size = page?.size;
  if (typeof size === 'string') {
    [w, h] = PAPER_MM[size];
  } else if (size) {
    const cw = lengthMm(size.width);
    const ch = lengthMm(size.height);
    if (cw === null || ch === null || cw < MIN_PAGE_MM || ch < MIN_PAGE_MM || cw > MAX_PAGE_MM || ch > MAX_PAGE_MM) {
      problems.push(`The custom page size must be between ${MIN_PAGE_MM} mm and ${MAX_PAGE_MM} mm in absolute units; A4 is used instead.`);
    } else {
      [w, h] = [cw, ch];
    }
  }
  const landscape = page?.orientation === 'landscape';
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
  if (headerHeightMm !== null && headerHeightMm > marginMm.top) {
    problems.push(`The header (${headerHeightMm} mm) is taller than the top margin (${marginMm.top} mm); the margin grows to fit it.`);
    marginMm.top = headerHeightMm;
  }
  if (footerHeightMm !== null && footerHeightMm > marginMm.bottom) {
    problems.push(`The footer (${footerHeightMm} mm) is taller than the bottom margin (${marginMm.bottom} mm); the margin grows to fit it.`);
    marginMm.bottom = footerHeightMm;
  }
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
      headerHeightMm: headerHeightMm === null ? null : Math.min(headerHeightMm, marginMm.top),
      footerHeightMm: footerHeightMm === null ? null : Math.min(footerHeightMm, marginMm.bottom),
    },
    problems,
  };
}
