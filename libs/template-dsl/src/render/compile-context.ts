import { RenderIssueType } from '@docrender/contracts';
import { BindingEnvironment } from '../binding/binding-evaluator';
import { GlyphCoverage } from '../fonts/glyph-coverage';
import { IssueCollector } from '../issues/issue-collector';
import { DocumentSpend } from './document-caps';
import { patternFileFor } from './hyphenation';
import { attachmentAssetReference, checkImageDataUri, classifyImageReference, ImageResolution } from './images';
import { PageReferences } from './page-references';
import { PreparedTemplate } from './prepared-template';

/**
 * render: produce the document. validate: the same checks, no output needed; images not handed in are
 * assumed resolvable (validation does no network I/O). collect: only list the image references.
 */
export type CompileMode = 'render' | 'validate' | 'collect';

/** The attribute that marks a placed element of unknown height (CompiledDocument.placedToMeasure); its value is the element id. */
export const PLACED_ATTRIBUTE = 'data-p';

export type ImageUse = 'image' | 'background';

export class CompileContext {
  readonly imageReferences = new Set<string>();
  /** What the document has spent of its caps (DocumentCaps). */
  readonly spend = new DocumentSpend();
  private charts = 0;
  /** Tables with lines at page breaks (TableElement.pageBreaks) rendered so far. */
  pageAwareTables = 0;
  /** Placed elements of unknown height rendered so far (marked `data-p`; ClassedStyle.placedId). */
  placedToMeasure = 0;
  /** The anchors and page references drawn so far. */
  readonly pageReferences = new PageReferences();
  /**
   * The page a header or footer is rendered for: conditions read `pageNumber` and `totalPages` from here. Null for
   * the body, and for bands printed alike on every page (their text gets Chromium's counters).
   */
  pageCounters: { pageNumber: number; totalPages: number } | null = null;
  /** The glyph coverage check every rendered element's text goes through; null where nothing is checked. */
  glyphs: GlyphCoverage | null = null;

  constructor(
    readonly prepared: PreparedTemplate,
    readonly mode: CompileMode,
    readonly env: BindingEnvironment,
    private readonly images: ReadonlyMap<string, ImageResolution> | undefined,
    private readonly allowHttpImages: boolean,
  ) {}

  get issues(): IssueCollector {
    return this.env.issues;
  }

  private readonly patterns = new Map<string, string | null>();

  /** The hyphenation patterns of a language (the document's or an element's `lang`), or null when there are none for it. */
  hyphenationPatterns(lang: string): string | null {
    let file = this.patterns.get(lang);
    if (file === undefined) {
      file = patternFileFor(lang);
      this.patterns.set(lang, file);
    }
    return file;
  }

  /** A per-document prefix for the ids inside the next chart's SVG. */
  nextChartId(): string {
    this.charts++;
    return `ch${this.charts}`;
  }

  /**
   * The bytes of an organisation asset to attach (`attachments[].asset`), or why there are none; `pending` in collect
   * mode (the reference is listed) and in validate mode when the file was not handed in.
   */
  attachmentAsset(name: string): { bytes: Uint8Array } | { error: string } | 'pending' {
    const reference = attachmentAssetReference(name);
    if (reference === null) return { error: `"${name.slice(0, 80)}" is not an asset name` };
    if (this.mode === 'collect') {
      this.imageReferences.add(reference);
      return 'pending';
    }
    const resolved = this.images?.get(reference);
    if (!resolved) return this.mode === 'validate' ? 'pending' : { error: `the organisation asset "${name}" was not read` };
    if ('error' in resolved) return { error: `the organisation asset "${name}" could not be read (${resolved.error})` };
    return { bytes: new Uint8Array(Buffer.from(resolved.dataUri.slice(resolved.dataUri.indexOf(',') + 1), 'base64')) };
  }

  /**
   * Resolves an image source to a checked data URI. Returns null (after reporting UnresolvedImage, or
   * InvalidPageBackground for a page background) when it cannot be used, and in collect and validate
   * modes when the image was not handed in.
   */
  resolveImage(source: string, use: ImageUse, elementId: string | null): string | null {
    const fail = (reason: string): null => {
      if (use === 'background') {
        this.issues.add(RenderIssueType.InvalidPageBackground, `The page background cannot be used: ${reason}.`, elementId);
      } else {
        this.issues.add(RenderIssueType.UnresolvedImage, `The image cannot be shown: ${reason}.`, elementId);
      }
      return null;
    };
    const ref = classifyImageReference(source);
    switch (ref.kind) {
      case 'invalid':
        return this.mode === 'collect' ? null : fail(ref.reason);
      case 'data': {
        if (this.mode === 'collect') return null;
        const checked = checkImageDataUri(ref.dataUri);
        if (!checked.ok) return fail(`the data URI is not usable (${checked.reason})`);
        const refused = this.spend.admitImage(checked.dataUri, checked.width, checked.height);
        return refused === null ? checked.dataUri : fail(`the data URI is too large to print: ${refused}`);
      }
      case 'remote':
      case 'asset': {
        if (ref.kind === 'remote' && ref.scheme === 'http' && !this.allowHttpImages) {
          if (this.mode === 'collect') return null;
          return fail(`${ref.reference.slice(0, 120)} uses http; only https images are fetched`);
        }
        if (this.mode === 'collect') {
          this.imageReferences.add(ref.reference);
          return null;
        }
        const resolved = this.images?.get(ref.reference);
        if (!resolved) {
          return this.mode === 'validate' ? null : fail(`${ref.reference.slice(0, 120)} was not fetched`);
        }
        if ('error' in resolved) return fail(`${ref.reference.slice(0, 120)} could not be loaded (${resolved.error})`);
        const checked = checkImageDataUri(resolved.dataUri);
        if (!checked.ok) return fail(`${ref.reference.slice(0, 120)} is not an image (${checked.reason})`);
        const refused = this.spend.admitImage(checked.dataUri, checked.width, checked.height);
        return refused === null ? checked.dataUri : fail(`${ref.reference.slice(0, 120)} is too large to print: ${refused}`);
      }
    }
  }
}
