import { CompiledEInvoice, compileEInvoice } from '../e-invoice/e-invoice-mapping';
import { RenderIssue, renderIssue, RenderIssueType } from '@docrender/contracts';
import { BindingEnvironment, bindingEnvironment, renderPlainText } from '../binding/binding-evaluator';
import { Scope } from '../binding/scope';
import { inspectData } from '../data/check-data';
import { checkDataContract } from '../data/data-contract';
import { documentNameFor } from '../document-name/document-name';
import {
  BUILTIN_FONT_FAMILIES,
  builtinFontFaceCss,
  builtinVariants,
  BandFaceSource,
  BUILTIN_FONT_ORIGIN,
  BuiltinFontSource,
  codePointsBeyondLatin1,
  CustomFontFile,
  customFontFaceCss,
  DEFAULT_FONT_FAMILY,
  FontFaceRef,
  nearestWeight,
} from '../fonts/font-registry';
import { bandCharacters, BandFaceSubsets } from '../fonts/band-face-subsets';
import { GlyphCoverage } from '../fonts/glyph-coverage';
import { COUNTER_IN_HTML, COUNTER_OR_TAG, COUNTER_TEXT } from './counter-text';
import { activeTranslations } from '../i18n/translations';
import { IssueCollector } from '../issues/issue-collector';
import { PAGE_REFERENCE_CLASS } from './page-references';
import { bandVariants, pageBackgroundsOf, Region, watermarksOf } from '../model/template-walker';
import { forPage, repeatedRoles } from './page-roles';
import { PageBackground, PageBand, PageBandVariant, Template, Watermark } from '../model/template.types';
import { parseColour } from '../style/colour';
import { lengthCss, lengthMm } from '../style/length';
import { CompileContext, CompileMode, PLACED_ATTRIBUTE } from './compile-context';
import { BaseDirection, documentDirection } from './direction';
import { ElementRenderer } from './element-renderer';
import { escapeHtml } from './html';
import { classifyImageReference, ImageResolution } from './images';
import { ArchivalOutput, resolveArchival } from './archival';
import { familyCss, PreparedTemplate, prepareTemplate, segmentsOf, UsedFace } from './prepared-template';

export interface CompileInput {
  template: Template;
  /** The document data: an object, or its JSON text. */
  data: unknown;
  /** The version's translations (object or JSON text), see docs/template-dsl.md. */
  translations?: unknown;
  /** Requested language; the default language when absent or not defined. */
  language?: string | null;
  /** Diagonal text on every page, e.g. 'TEST' for test-key renders. */
  watermark?: string | null;
  /** Fetched images keyed by the references `imageReferencesOf` listed. */
  images?: ReadonlyMap<string, ImageResolution>;
  /** Font files of the organisation's custom families. */
  customFonts?: CustomFontFile[];
  documentNameTemplate?: string | null;
  fallbackDocumentName?: string;
  allowHttpImages?: boolean;
  /**
   * `served`: the document names the built-in faces its bands do not use by BUILTIN_FONT_ORIGIN URLs instead of
   * inlining them, for a printer that serves those (the render service, decision 0020); default `inline`.
   */
  builtinFonts?: BuiltinFontSource;
  /**
   * With `served`: the bands print their built-in faces subset to the characters they can print, from these subsets
   * once they are made (decision 0020, "Band faces subset"); without, or until then, whole.
   */
  bandFaceSubsets?: BandFaceSubsets;
}

export type ValidateInput = Omit<CompileInput, 'watermark' | 'builtinFonts' | 'bandFaceSubsets'>;

export interface CompiledDocument {
  /**
   * The self-contained document: fonts, images and SVG inlined (built-in faces by BUILTIN_FONT_ORIGIN URLs when
   * compiled with `builtinFonts: 'served'`); no script; nothing else loads from anywhere.
   */
  html: string;
  /**
   * Chromium `headerTemplate` (page.pdf with displayHeaderFooter), or null when the template has no header. When the
   * pages differ (`pageVariant`), the header of page 2 of 3, for a printer that cannot print variants.
   */
  headerHtml: string | null;
  /** Chromium `footerTemplate`, or null when the template has no footer. */
  footerHtml: string | null;
  /** Sheet size as printed (already landscape when `landscape`) and margins, in millimetres. */
  page: { widthMm: number; heightMm: number; landscape: boolean; marginMm: { top: number; right: number; bottom: number; left: number } };
  /** Print a tagged (accessible) PDF: the template's `tagged` (default false), or true when it asks for PDF/UA. */
  tagged: boolean;
  /** PDF title. */
  title: string;
  /** PDF/A level, metadata and attachments for the PDF post-processing stage. */
  archival: ArchivalOutput;
  /** File-name-safe name without extension. */
  documentName: string;
  /** Always false: the HTML needs no JavaScript. */
  needsJavaScript: boolean;
  /**
   * Null when every page prints alike (`headerHtml` and `footerHtml` on every page). Otherwise the pages differ
   * (first/last/odd/even headers, footers, backgrounds or watermarks, or band conditions on `pageNumber` or
   * `totalPages`): what page `pageNumber` of `totalPages` gets. The printer counts the pages, prints the pages that
   * are alike together and puts the pages in order (docs/decisions/0011-page-roles.md).
   */
  pageVariant: ((pageNumber: number, totalPages: number) => PageVariant) | null;
  /**
   * Tables with lines at page breaks ("continued", carried subtotals): rows are marked `data-r="<table>:<row>"`, and
   * after each such table a `template.xd` (BREAK_ROWS_CLASS, JSON text: BreakRowsData) holds the rows that may follow each
   * row at a break (`tr.xc` for the foot of a page, `tr.xb` for the head of the next; expandBreakRows). A printer puts
   * them after the rows where it finds the table breaks, shown (class `xon`, and `xbrk` on the first `xb`).
   */
  pageAwareTables: boolean;
  /**
   * Placed elements (`position`) whose height only printing tells are marked `data-p="<element id>"`: a printer
   * reports each that reaches below the first page's content area (Chromium adds a page for it) as RenderLayoutDegraded
   * (placedBeyondPageIssue).
   */
  placedToMeasure: boolean;
  /**
   * The body has page references (`{{ pageOf('…') }}`) to anchors it has: links `a.pr` to the anchors' HTML ids whose
   * text, UNRESOLVED_PAGE until then, a printer replaces with the page each anchor lands on (docs/decisions/0036).
   */
  pageReferences: boolean;
  /** A PDF outline (bookmarks) from the headings is asked for (the template's `outline`). */
  outline: boolean;
  /**
   * The elements fixed on every page, written first in the body: the test key's watermark and the template's
   * watermarks as resolved for this document (their text may come from its data); '' when there are none. Documents
   * of one template whose watermarks differ print differently on every page (a batch print keeps them once).
   */
  fixedMarkup: string;
  /**
   * The e-invoice (`eInvoice` in the template): the checked CII XML and the file name to embed it under in a
   * PDF/A-3, or null when the template declares none or a rule failed (a SchemaInvalid error then names it).
   */
  eInvoice: CompiledEInvoice | null;
  issues: RenderIssue[];
}

/** What one page prints with when pages differ. */
export interface PageVariant {
  headerHtml: string | null;
  footerHtml: string | null;
  /** CSS for the element `#${PAGE_STYLE_ID}` of the document while this page prints: its background, its watermark. */
  pageCss: string;
}

export { PLACED_ATTRIBUTE };

/** What a printer reports for a placed element it found reaching below the first page's content area. */
export function placedBeyondPageIssue(elementId: string): RenderIssue {
  return renderIssue(
    RenderIssueType.RenderLayoutDegraded,
    'The placed element reaches below the bottom margin of the first page (position is measured from the first sheet); Chromium adds a page for what lies below.',
    elementId,
  );
}

/** The id of the (empty) style element a printer fills with a page variant's `pageCss`. */
export const PAGE_STYLE_ID = 'docrender-page';

/** Page references read as the text around them, their digits of one width. */
const PAGE_REFERENCE_CSS = `a.${PAGE_REFERENCE_CLASS}{color:inherit;text-decoration:none;white-space:nowrap;font-variant-numeric:tabular-nums}\n`;

/** Layout rules shared by the body and the header/footer documents. */
export const BASE_CSS = [
  'html{-webkit-print-color-adjust:exact;print-color-adjust:exact}',
  '*,*::before,*::after{box-sizing:border-box}',
  'p,h1,h2,h3,h4,h5,h6{margin:0;font-size:inherit;font-weight:inherit}',
  '.t{white-space:pre-line;overflow-wrap:anywhere}',
  'img{display:inline-block;vertical-align:top}',
  'svg{display:block}',
  '.code{width:100%;height:100%}',
  'table{border-collapse:collapse;width:100%;table-layout:fixed}',
  'thead{display:table-header-group}',
  'tr{break-inside:avoid;page-break-inside:avoid}',
  'th,td{padding:2pt 4pt;text-align:start;vertical-align:top;font-weight:inherit;overflow-wrap:anywhere}',
  '.tot{break-inside:avoid;break-before:avoid}',
  '.pb{break-before:page}',
  // nobr: numbers, amounts, dates and codes (decision 0031); the short tag keeps the HTML of long tables small
  'nobr,.nb{white-space:inherit;text-wrap-mode:nowrap}',
  '.kr{break-inside:avoid}',
  '.xc,.xb{display:none}',
  '.xc.xon,.xb.xon{display:table-row}',
  '.xb.xbrk{break-before:page}',
  '.md p,.md ul,.md ol,.md blockquote,.md pre{margin:0 0 .5em}',
  '.md>:last-child{margin-bottom:0}',
  '.md h1,.md h2,.md h3,.md h4,.md h5,.md h6{font-weight:700;margin:0 0 .4em}',
  '.md h1{font-size:1.6em}.md h2{font-size:1.35em}.md h3{font-size:1.15em}',
  '.md strong{font-weight:700}.md em{font-style:italic}',
  ".md code,.md pre{font-family:'Roboto Mono'}",
  '.md blockquote{padding-inline-start:8pt;border-inline-start:2pt solid #c8c8c8}',
  '.md ul,.md ol{padding-inline-start:16pt}',
  '.md a{color:inherit;text-decoration:underline}',
].join('\n');

const BAND_ALIGN: Record<string, string> = { top: 'flex-start', middle: 'center', bottom: 'flex-end' };

/** Minimal escaping for an SVG placed in a `url("data:image/svg+xml,…")`. */
function svgDataUri(svg: string): string {
  return `data:image/svg+xml,${svg.replace(/[%#"<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

function fontFaceCss(
  faces: readonly UsedFace[],
  customFonts: readonly CustomFontFile[],
  text: ReadonlySet<number>,
  issues: IssueCollector,
  mode: CompileMode,
  sourceOf: (face: UsedFace) => BuiltinFontSource | BandFaceSource = () => 'inline',
): string {
  let css = '';
  const declared = new Set<CustomFontFile>();
  for (const face of faces) {
    if (BUILTIN_FONT_FAMILIES.includes(face.family)) {
      const { weights, styles } = builtinVariants(face.family);
      if (!weights.includes(face.weight) || !styles.includes(face.style)) {
        issues.add(
          RenderIssueType.UnresolvedFont,
          `The built-in family "${face.family}" has no ${face.weight} ${face.style} face (weights ${weights.join(', ')}; ${styles.join(' and ')}); ` +
            `weight ${nearestWeight(weights, face.weight)} ${styles.includes(face.style) ? face.style : 'normal'} is used.`,
          face.elementId,
        );
      }
      if (mode === 'render') css += builtinFontFaceCss(face, text, face.family, sourceOf(face));
      continue;
    }
    const wanted = face.family.toLowerCase();
    const files = customFonts.filter((f) => f.family.trim().toLowerCase() === wanted);
    if (files.length === 0) {
      issues.add(
        RenderIssueType.UnresolvedFont,
        `The font family "${face.family}" is neither built in (${BUILTIN_FONT_FAMILIES.join(', ')}) nor a custom family of the organisation; ${DEFAULT_FONT_FAMILY} is used instead.`,
        face.elementId,
      );
      if (mode === 'render') css += builtinFontFaceCss({ ...face, family: DEFAULT_FONT_FAMILY }, text, face.family, sourceOf(face));
      continue;
    }
    let file = files.find((f) => f.weight === face.weight && f.style === face.style);
    if (!file) {
      issues.add(
        RenderIssueType.UnresolvedFont,
        `The custom font family "${face.family}" has no file for weight ${face.weight} ${face.style}; the nearest variant is used.`,
        face.elementId,
      );
      const sameStyle = files.filter((f) => f.style === face.style);
      const pool = sameStyle.length > 0 ? sameStyle : files;
      const weight = nearestWeight(pool.map((f) => f.weight), face.weight);
      file = pool.find((f) => f.weight === weight) as CustomFontFile;
    }
    if (mode !== 'render' || declared.has(file)) continue;
    declared.add(file);
    const rule = customFontFaceCss(file, face.family);
    if (rule) css += rule;
    else {
      issues.add(
        RenderIssueType.UnresolvedFont,
        `The file of "${face.family}" ${file.weight} ${file.style} is not a font (WOFF2, WOFF, TrueType or OpenType data URI); ${DEFAULT_FONT_FAMILY} is used instead.`,
        face.elementId,
      );
      css += builtinFontFaceCss({ ...face, family: DEFAULT_FONT_FAMILY }, text, face.family, sourceOf(face));
    }
  }
  return css;
}

/** The CSS of a page background over the whole sheet, for `selector` (`@page`, `@page :first`). */
function backgroundCss(prepared: PreparedTemplate, background: PageBackground, dataUri: string, selector: string): string {
  const { widthMm: w, heightMm: h, marginMm: m } = prepared.page;
  // The page background paints the whole sheet but is positioned from the page area (CSS Paged Media),
  // so it is shifted by the margins. An SVG wrapper applies the fit.
  const fit = { cover: 'xMidYMid slice', contain: 'xMidYMid meet', stretch: 'none' }[background.fit ?? 'cover'];
  const svg =
    `<svg xmlns='http://www.w3.org/2000/svg' width='${w}mm' height='${h}mm' viewBox='0 0 ${w} ${h}'>` +
    `<image href='${dataUri}' x='0' y='0' width='${w}' height='${h}' preserveAspectRatio='${fit}'/></svg>`;
  return `${selector}{background:url("${svgDataUri(svg)}") -${m.left}mm -${m.top}mm/${w}mm ${h}mm no-repeat}\n`;
}

function pageCss(prepared: PreparedTemplate, staticBackground: { background: PageBackground; dataUri: string } | null): string {
  const { widthMm: w, heightMm: h, marginMm: m } = prepared.page;
  let css = `@page{size:${w}mm ${h}mm;margin:${m.top}mm ${m.right}mm ${m.bottom}mm ${m.left}mm}\n`;
  if (staticBackground) {
    const selector = staticBackground.background.pages === 'first' ? '@page :first' : '@page';
    css += backgroundCss(prepared, staticBackground.background, staticBackground.dataUri, selector);
  }
  return css;
}

function watermarkCss(text: string, family: string): string {
  const size = Math.max(24, Math.min(110, Math.floor(760 / Math.max(4, Array.from(text).length))));
  return (
    `.wm{position:fixed;top:50%;left:50%;transform:translate(-50%,-50%) rotate(-35deg);font-family:'${family}';font-size:${size}pt;` +
    'font-weight:700;color:rgba(200,0,0,0.16);white-space:nowrap;z-index:1000;pointer-events:none}\n'
  );
}

/** A template watermark (page.watermark), resolved for this document. */
interface ResolvedWatermark {
  watermark: Watermark;
  cls: string;
  markup: string;
  css: string;
}

function resolveWatermarks(prepared: PreparedTemplate, scope: Scope, ctx: CompileContext): ResolvedWatermark[] {
  const out: ResolvedWatermark[] = [];
  const all = watermarksOf(prepared.template.page);
  const repeated = new Set(repeatedRoles(all, (w) => w.pages ?? 'all'));
  const maxMm = Math.max(prepared.page.widthMm, prepared.page.heightMm);
  all.forEach((watermark, i) => {
    if (repeated.has(i)) return;
    const widthMm = lengthMm(watermark.width, prepared.page.widthMm);
    if (widthMm !== null && widthMm > maxMm + 0.01) {
      // DocumentCaps: no length longer than the sheet
      const which = all.length > 1 ? `page.watermark[${i}]` : 'page.watermark';
      ctx.issues.add(RenderIssueType.RenderLayoutDegraded, `The width ${String(watermark.width)} of ${which} is longer than the sheet (${maxMm} mm); the watermark is left out.`, null);
      return;
    }
    const cls = `uw${i}`;
    let colour = '#c80000';
    if (watermark.color !== undefined) {
      const text = renderPlainText(segmentsOf(watermark.color), scope, ctx.env, null).trim();
      const parsed = parseColour(text);
      if (parsed) colour = parsed;
      else ctx.issues.add(RenderIssueType.InvalidColor, `The watermark colour "${text.slice(0, 60)}" is not a colour; red is used.`, null);
    }
    const turn = `translate(-50%,-50%) rotate(${-(watermark.angle ?? 35)}deg)`;
    let markup = '';
    let css = `.${cls}{position:fixed;top:50%;left:50%;transform:${turn};opacity:${watermark.opacity ?? 0.16};z-index:999;pointer-events:none`;
    if (watermark.text !== undefined) {
      const text = renderPlainText(segmentsOf(watermark.text), scope, ctx.env, null);
      const size = watermark.fontSize ?? Math.max(24, Math.min(110, Math.floor(760 / Math.max(4, Array.from(text).length))));
      css += `;font-family:${familyCss(prepared.base.font.family)};font-size:${size}pt;font-weight:700;color:${colour};white-space:pre;line-height:1.1`;
      markup = `<div class="${cls}" aria-hidden="true">${escapeHtml(text)}</div>`;
    } else {
      const source = renderPlainText(segmentsOf(watermark.image ?? ''), scope, ctx.env, null);
      const src = ctx.resolveImage(source, 'image', null);
      const width = lengthCss(watermark.width) ?? `${Math.round(prepared.page.widthMm / 2)}mm`;
      css += `;width:${width}`;
      if (src) markup = `<img class="${cls}" src="${escapeHtml(src)}" alt="">`;
      // closed with the rule below, like the text watermark's
      css += `}\nimg.${cls}{display:block;height:auto`;
    }
    out.push({ watermark, cls, markup, css: `${css}}\n` });
  });
  return out;
}

interface BandOutput {
  markup: string;
  style: string;
}

function renderBand(
  region: Exclude<Region, 'body'>,
  band: PageBand | undefined,
  variant: PageBandVariant | undefined,
  renderer: ElementRenderer,
  scope: Scope,
  ctx: CompileContext,
): BandOutput | null {
  if (!band || !variant) return null;
  const prepared = ctx.prepared;
  const heightMm = (region === 'header' ? prepared.page.headerHeightMm : prepared.page.footerHeightMm) ?? 0;
  const { left, right } = prepared.page.marginMm;
  const bandScope = scope.with('pageNumber', COUNTER_TEXT.pageNumber).with('totalPages', COUNTER_TEXT.totalPages);
  // the variant's direction, else the band's, else the document's (auto)
  const own = variant.direction ?? band.direction;
  const dir: BaseDirection = own === 'ltr' || own === 'rtl' ? own : renderer.direction;
  // counters in text become spans; in an attribute (alt text, a colour) they cannot, and are left out
  const content = renderer
    .renderAllIn(dir, variant.elements, bandScope)
    .replace(COUNTER_OR_TAG, (match, name: string | undefined) => (name ? `<span class="${name}"></span>` : match.replace(COUNTER_IN_HTML, '')));
  // Chromium lays the header and footer templates out in one document: their class names must differ.
  const bandClass = region === 'header' ? 'hband' : 'fband';
  const bandCss =
    `.${bandClass}{width:100%;height:${heightMm}mm;padding:0 ${right}mm 0 ${left}mm;display:flex;flex-direction:column;` +
    `justify-content:${BAND_ALIGN[variant.verticalAlign ?? band.verticalAlign ?? 'middle']};overflow:hidden;${prepared.base.declarations}}`;
  return { markup: `<div class="${bandClass}" dir="${dir}">${content}</div>`, style: `${BASE_CSS}\n${bandCss}\n${prepared.registries[region].css()}` };
}

/** The band variant of a page. */
function bandFor(band: PageBand | undefined, pageNumber: number, totalPages: number): PageBandVariant | undefined {
  if (!band) return undefined;
  const variants = bandVariants(band);
  return forPage(variants, (v) => v.role ?? 'all', pageNumber, totalPages)?.variant;
}

interface CompileOutcome extends CompiledDocument {
  imageReferences: string[];
}

function compile(input: CompileInput, mode: CompileMode): CompileOutcome {
  const prepared = prepareTemplate(input.template);
  const template = prepared.template;
  const issues = new IssueCollector();
  const translations = activeTranslations(input.translations, input.language);
  const env: BindingEnvironment = bindingEnvironment(
    { locale: translations.locale ?? template.locale ?? 'en-US', timeZone: template.timeZone ?? 'UTC', currency: template.currency ?? null },
    translations,
    issues,
  );
  // checking the data is the document's first charge to its step budget (decision 0041)
  const inspection = inspectData(input.data, env.budget);
  issues.addAll(inspection.issues);
  const ctx = new CompileContext(prepared, mode, env, input.images, input.allowHttpImages ?? false);
  if (mode !== 'collect') ctx.glyphs = new GlyphCoverage(input.customFonts ?? [], issues);
  const fallbackName = input.fallbackDocumentName ?? template.name ?? 'document';
  const { widthMm, heightMm, landscape, marginMm } = prepared.page;
  const pageOut = { widthMm, heightMm, landscape, marginMm: { ...marginMm } };
  const usable = inspection.usable;
  const scope = Scope.of(usable ? inspection.value : {});

  if (usable && prepared.dataValidator) issues.addAll(checkDataContract(prepared.dataValidator, inspection.value));
  for (const s of prepared.staticIssues) issues.add(s.type, s.description, s.elementId);

  const documentName = usable ? documentNameFor(input.documentNameTemplate, scope, env, fallbackName) : documentNameFor(null, scope, env, fallbackName);
  const title = usable && template.title !== undefined ? renderPlainText(segmentsOf(template.title), scope, env, null).trim() || documentName : documentName;
  const eInvoice = usable && template.eInvoice !== undefined ? compileEInvoice(template.eInvoice, scope, env) : null;
  const lang = escapeHtml(env.settings.locale);
  const dir: BaseDirection = documentDirection(template.direction, translations.language ?? input.language ?? null, env.settings.locale);
  for (const s of prepared.directedIssues[dir]) issues.add(s.type, s.description, s.elementId);
  const archival = resolveArchival(template, scope, env, issues, usable, ctx);

  let body = '';
  let pageReferences = false;
  const bands: BandOutput[] = [];
  let header: BandOutput | null = null;
  let footer: BandOutput | null = null;
  let renderer: ElementRenderer | null = null;
  const backgrounds: { background: PageBackground; dataUri: string | null }[] = [];
  let watermarks: ResolvedWatermark[] = [];
  const page = template.page;
  if (usable) {
    renderer = new ElementRenderer(ctx, dir);
    const all = pageBackgroundsOf(page);
    const repeated = new Set(repeatedRoles(all, (b) => b.pages ?? 'all'));
    for (const background of all.filter((_b, i) => !repeated.has(i))) {
      const source = renderPlainText(segmentsOf(background.source), scope, env, null);
      backgrounds.push({ background, dataUri: ctx.resolveImage(source, 'background', null) });
    }
    watermarks = resolveWatermarks(prepared, scope, ctx);
    for (const w of watermarks) if (w.watermark.text !== undefined) ctx.glyphs?.text(w.markup, null, { ...prepared.base.font, weight: 700, style: 'normal' });
    body = renderer.renderAll(template.body, scope);
    ({ html: body, resolvable: pageReferences } = ctx.pageReferences.settle(body, issues));
    // every variant once, for its issues and the characters its fonts need; when pages are alike, the only one
    for (const region of ['header', 'footer'] as const) {
      for (const v of bandVariants(page?.[region])) {
        if (prepared.pagesDiffer) ctx.pageCounters = { pageNumber: 1, totalPages: 1 };
        const out = renderBand(region, page?.[region], v.variant, renderer, scope, ctx);
        ctx.pageCounters = null;
        if (!out) continue;
        bands.push(out);
        if (!prepared.pagesDiffer && region === 'header') header = out;
        if (!prepared.pagesDiffer && region === 'footer') footer = out;
      }
    }
  }

  const watermark = mode === 'render' && input.watermark ? input.watermark : null;
  const customFonts = input.customFonts ?? [];
  const allText = codePointsBeyondLatin1(`${body}${bands.map((b) => b.markup).join('')}${watermarks.map((w) => w.markup).join('')}${watermark ?? ''}`);
  // The band faces are declared in the document too: Chromium draws a band's text only in faces the document
  // itself has loaded (a face only a band uses prints nothing), and the printer loads every face the document declares.
  const bandFaces = (region: 'header' | 'footer'): UsedFace[] => (page?.[region] === undefined ? [] : prepared.faces[region]);
  const bodyFaces: UsedFace[] = [
    ...prepared.faces.body,
    ...(watermark || watermarks.some((w) => w.watermark.text !== undefined) ? [{ ...prepared.base.font, weight: 700, style: 'normal' as const, elementId: null }] : []),
    ...bandFaces('header'),
    ...bandFaces('footer'),
  ].filter((face, i, all) => all.findIndex((f) => f.family === face.family && f.weight === face.weight && f.style === face.style) === i);
  // served faces: only those no band uses — a band cannot load a URL (Chromium fails the print) and draws only faces
  // the document loaded from the very same URL, so its faces stay inline in the document as in the band
  // unless the bands print them subset to their characters: then the document serves them for its own text and
  // declares the bands' subsets (a band's text is certain only when every page has the same bands)
  const inBand = new Set([...bandFaces('header'), ...bandFaces('footer')].map((f) => `${f.family}|${f.weight}|${f.style}`));
  const served = input.builtinFonts === 'served';
  const characters = served && input.bandFaceSubsets && !prepared.pagesDiffer && inBand.size > 0 ? bandCharacters(bands.map((b) => b.markup)) : null;
  const subsets = input.bandFaceSubsets;
  // asked once per file and document: the document and every band print the same subset or the same whole file
  const subsetOfFile = new Map<string, string | null>();
  const subsetOf =
    characters === null || !subsets
      ? null
      : (file: string): string | null => {
          if (!subsetOfFile.has(file)) subsetOfFile.set(file, subsets.dataUri(file, characters));
          return subsetOfFile.get(file) ?? null;
        };
  const bodySource = (face: UsedFace): BuiltinFontSource | BandFaceSource =>
    !served ? 'inline' : !inBand.has(`${face.family}|${face.weight}|${face.style}`) ? 'served' : subsetOf ? { in: 'document', subsetOf } : 'inline';
  const bandSource = (): BuiltinFontSource | BandFaceSource => (subsetOf ? { in: 'band', subsetOf } : 'inline');
  const bodyFonts = fontFaceCss(bodyFaces, customFonts, allText, issues, mode, bodySource);
  const hasBand = (region: 'header' | 'footer'): boolean => page?.[region] !== undefined;
  const headerFonts = hasBand('header') ? fontFaceCss(prepared.faces.header, customFonts, allText, issues, mode, bandSource) : '';
  const footerFonts = hasBand('footer') ? fontFaceCss(prepared.faces.footer, customFonts, allText, issues, mode, bandSource) : '';

  const result: CompileOutcome = {
    html: '',
    headerHtml: null,
    footerHtml: null,
    page: pageOut,
    tagged: (template.tagged ?? false) || template.pdfUA !== undefined,
    title,
    archival,
    documentName,
    needsJavaScript: false,
    pageVariant: null,
    pageAwareTables: ctx.pageAwareTables > 0,
    placedToMeasure: ctx.placedToMeasure > 0,
    pageReferences,
    outline: template.outline ?? false,
    fixedMarkup: '',
    eInvoice,
    issues: issues.toArray(),
    imageReferences: [...ctx.imageReferences],
  };
  if (mode !== 'render') return result;

  const staticBackground = !prepared.pagesDiffer && backgrounds.length === 1 && backgrounds[0].dataUri ? { background: backgrounds[0].background, dataUri: backgrounds[0].dataUri } : null;
  const style =
    bodyFonts +
    pageCss(prepared, staticBackground) +
    `${BASE_CSS}\nbody{margin:0;${prepared.base.declarations}}\n` +
    (watermark ? watermarkCss(watermark, prepared.base.font.family) : '') +
    watermarks.map((w) => w.css).join('') +
    prepared.registries.body.css() +
    (dir === 'rtl' ? prepared.mirroredCss : '') +
    (pageReferences ? PAGE_REFERENCE_CSS : '');
  // the built-in font origin is allowed whether or not this document names it: a page that documents are written
  // into (setContent) keeps the policies of every earlier one, so a document that refused it would refuse it to the
  // served documents after it on the same page
  result.fixedMarkup = `${watermark ? `<div class="wm" aria-hidden="true">${escapeHtml(watermark)}</div>` : ''}${watermarks.map((w) => w.markup).join('')}`;
  result.html =
    '<!DOCTYPE html>\n' +
    `<html lang="${lang}" dir="${dir}"><head><meta charset="utf-8">\n` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; font-src data: ${BUILTIN_FONT_ORIGIN}; style-src 'unsafe-inline'">\n` +
    `<title>${escapeHtml(title)}</title>\n<style>\n${style}</style>${prepared.pagesDiffer ? `<style id="${PAGE_STYLE_ID}"></style>` : ''}</head>\n` +
    `<body>${result.fixedMarkup}${body}</body></html>\n`;
  const bandHtml = (fonts: string, band: BandOutput | null): string | null => (band ? `<style>\n${fonts}${band.style}</style>${band.markup}` : null);
  result.headerHtml = bandHtml(headerFonts, header);
  result.footerHtml = bandHtml(footerFonts, footer);
  if (prepared.pagesDiffer && usable) {
    result.pageVariant = (pageNumber, totalPages) => {
      // issues were collected above; a page's own rendering reports into nothing
      const pageCtx = new CompileContext(prepared, mode, { ...env, issues: new IssueCollector() }, input.images, input.allowHttpImages ?? false);
      pageCtx.pageCounters = { pageNumber, totalPages };
      const pageRenderer = new ElementRenderer(pageCtx, dir);
      const bandOf = (region: 'header' | 'footer', fonts: string): string | null =>
        bandHtml(fonts, renderBand(region, page?.[region], bandFor(page?.[region], pageNumber, totalPages), pageRenderer, scope, pageCtx));
      const background = forPage(backgrounds, (b) => b.background.pages ?? 'all', pageNumber, totalPages);
      const shown = forPage(watermarks, (w) => w.watermark.pages ?? 'all', pageNumber, totalPages);
      const hidden = watermarks.filter((w) => w !== shown).map((w) => `.${w.cls}`);
      return {
        headerHtml: bandOf('header', headerFonts),
        footerHtml: bandOf('footer', footerFonts),
        pageCss:
          (background?.dataUri ? backgroundCss(prepared, background.background, background.dataUri, '@page') : '') +
          (hidden.length > 0 ? `${hidden.join(',')}{display:none}\n` : ''),
      };
    };
    // for a printer that knows nothing of variants: the bands of a page that is neither the first nor the last
    const middle = result.pageVariant(2, 3);
    result.headerHtml = middle.headerHtml;
    result.footerHtml = middle.footerHtml;
  }
  return result;
}

function withoutReferences({ imageReferences: _refs, ...doc }: CompileOutcome): CompiledDocument {
  return doc;
}

/**
 * Compiles template + data + translations into one self-contained HTML document (and the header/footer
 * templates Chromium repeats on every page). Never throws for any data: problems come back as issues
 * (with documentIndex null for the caller to fill in). Throws InvalidTemplateError only for a template
 * `validateTemplate` rejects.
 */
export function compileDocument(input: CompileInput): CompiledDocument {
  return withoutReferences(compile(input, 'render'));
}

/** The checks of a render without producing output and without network: images not in `images` are assumed fine. */
export function validateDocument(input: ValidateInput): RenderIssue[] {
  return compile({ ...input, watermark: null }, 'validate').issues;
}

/**
 * The image references (https URLs, http URLs when allowed, `asset:<name>`) that compiling this template
 * with this data will look up in `images`, in document order. The caller fetches them (SSRF-protected)
 * and passes the results to `compileDocument`.
 */
export function imageReferencesOf(template: Template, data: unknown, options: { allowHttpImages?: boolean } = {}): string[] {
  // only image elements and the page background look images up: without one that can, walking the data (a whole
  // compile of a 1,000-row table) would find nothing
  if (!looksUpImages(prepareTemplate(template))) return [];
  return compile({ template, data, allowHttpImages: options.allowHttpImages }, 'collect').imageReferences;
}

/** Whether an image element or the page background has a source other than an inline data URI, or an attachment is an organisation asset. */
function looksUpImages(prepared: PreparedTemplate): boolean {
  const inline = (source: string): boolean => {
    const segments = segmentsOf(source);
    return segments.every((s) => typeof s === 'string') && classifyImageReference(segments.join('')).kind === 'data';
  };
  if (pageBackgroundsOf(prepared.template.page).some((b) => !inline(b.source))) return true;
  if (watermarksOf(prepared.template.page).some((w) => w.image !== undefined && !inline(w.image))) return true;
  for (const element of prepared.elements.keys()) if (element.type === 'image' && !inline(element.source)) return true;
  return (prepared.template.attachments ?? []).some((attachment) => attachment.asset !== undefined);
}

/**
 * The type faces (family, weight, style) a template uses, in the header, body and footer: what the render
 * service must supply for custom families. Built-in families are named canonically (generic names map to them).
 */
export function fontFamiliesOf(template: Template): FontFaceRef[] {
  const prepared = prepareTemplate(template);
  const seen = new Set<string>();
  const out: FontFaceRef[] = [];
  for (const face of [...prepared.faces.header, ...prepared.faces.body, ...prepared.faces.footer]) {
    const key = `${face.family}|${face.weight}|${face.style}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ family: face.family, weight: face.weight, style: face.style });
  }
  return out;
}
