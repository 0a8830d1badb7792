import { randomUUID } from 'node:crypto';
import MarkdownIt from 'markdown-it';
import { Binding, TemplateSegments } from '../binding/binding-syntax';
import { lineCount } from './document-caps';

/**
 * The safe Markdown subset of rich text: paragraphs, line breaks, emphasis, strikethrough, headings,
 * lists, block quotes, code, rules and links (https, http, mailto, tel). Raw HTML is shown as text
 * (`html: false`); an image (`![alt](src)`, from the template or from data) is shown as its alt text, neither loaded
 * nor linked, and reported (images come from image elements, whose sources are checked and sized).
 *
 * Bindings are replaced by placeholders before parsing and their values put into the parsed tokens, so a
 * value is always text: markup or Markdown in data cannot change the structure, and a bound link target is
 * checked after substitution.
 */

const md = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false, breaks: true });
md.enable(['strikethrough']);

const SAFE_LINK = /^(https?:\/\/|mailto:|tel:)/i;
const PLACEHOLDER = /dslbind(\d+)x/g;
const STARTS_WITH_PLACEHOLDER = /^dslbind\d+x/;
md.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim()) || STARTS_WITH_PLACEHOLDER.test(url.trim());

type Token = MarkdownIt.Token;

/** A link's target as text (markdown-it types attribute values as `string | number`; the parser writes strings). */
const hrefOf = (token: Token): string => String(token.attrGet('href') ?? '');

/** Markdown source with a placeholder for each binding, and the bindings in placeholder order. */
function withPlaceholders(segments: TemplateSegments): { source: string; bindings: Binding[] } {
  let source = '';
  const bindings: Binding[] = [];
  for (const segment of segments) {
    if (typeof segment === 'string') {
      source += segment.replace(PLACEHOLDER, 'dslbind$1 x');
    } else {
      source += `dslbind${bindings.length}x`;
      bindings.push(segment);
    }
  }
  return { source, bindings };
}

function forEachToken(tokens: Token[], visit: (token: Token, siblings: Token[], index: number) => void): void {
  tokens.forEach((token, index) => {
    visit(token, tokens, index);
    if (token.children) forEachToken(token.children, visit);
  });
}

/** Turns a link (and its closing token) into a plain span. */
function unlink(siblings: Token[], openIndex: number): void {
  let depth = 0;
  for (let i = openIndex; i < siblings.length; i++) {
    const t = siblings[i];
    if (t.type === 'link_open') depth++;
    if (t.type === 'link_close' && --depth === 0) {
      t.tag = 'span';
      break;
    }
  }
  siblings[openIndex].tag = 'span';
  siblings[openIndex].attrs = null;
}

const MarkdownToken = new md.core.State('', md, {}).Token;

/** Markdown from data (`{{ notes | markdown }}`): the same subset; every link is seen, and checked, after parsing. */
const dataMd = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false, breaks: true });
dataMd.enable(['strikethrough']);
dataMd.validateLink = (): boolean => true;

const EMPHASIS = /^(em|strong|s)_(open|close)$/;

/**
 * Drops emphasis inside emphasis of the same kind (bold in bold, italic in italic, strikethrough in strikethrough),
 * which prints exactly as the outer one does: `*` runs in data can nest them thousands deep (25,000 stars made
 * 12,500 nested <strong>), which Chromium lays out for seconds (issue 31). At most three levels remain.
 */
function flattenEmphasis(tokens: Token[]): void {
  forEachToken(tokens, (token) => {
    if (!token.children) return;
    const open = new Map<string, number>();
    const dropped: boolean[] = [];
    let any = false;
    for (const child of token.children) {
      const m = EMPHASIS.exec(child.type);
      if (!m) continue;
      const [, kind, side] = m;
      // markdown-it nests emphasis properly: a close belongs to the last open
      const drop = side === 'open' ? (open.get(kind) ?? 0) > 0 : (dropped.pop() ?? false);
      if (side === 'open') dropped.push(drop);
      open.set(kind, (open.get(kind) ?? 0) + (side === 'open' ? 1 : -1));
      if (drop) {
        child.hidden = true;
        any = true;
      }
    }
    if (any) token.children = token.children.filter((c) => !c.hidden);
  });
}

/** Turns every image into the text of its alt; returns the images as written (`![alt](src)`). */
function unimage(tokens: Token[]): string[] {
  const images: string[] = [];
  forEachToken(tokens, (token) => {
    if (token.type !== 'image') return;
    const alt = md.renderer.renderInlineAsText(token.children ?? [], md.options, {});
    images.push(`![${alt}](${token.attrGet('src') ?? ''})`);
    token.type = 'text';
    token.tag = '';
    token.content = alt;
    token.children = null;
    token.attrs = null;
  });
  return images;
}

/** Unlinks links whose target is not an allowed address; returns those targets. */
function checkLinks(tokens: Token[]): string[] {
  const unsafe: string[] = [];
  forEachToken(tokens, (token, siblings, index) => {
    if (token.type !== 'link_open') return;
    const href = hrefOf(token).trim();
    if (SAFE_LINK.test(href)) token.attrSet('href', href);
    else {
      unsafe.push(href);
      unlink(siblings, index);
    }
  });
  return unsafe;
}

/** Data Markdown as HTML: block content (paragraphs, lists, headings) or, inside a paragraph, inline content. */
function dataMarkdownHtml(text: string, block: boolean, unsafeLinks: string[], images: string[]): string {
  const tokens = block ? dataMd.parse(text, {}) : dataMd.parseInline(text, {});
  images.push(...unimage(tokens));
  flattenEmphasis(tokens);
  unsafeLinks.push(...checkLinks(tokens));
  return dataMd.renderer.render(tokens, dataMd.options, {});
}

/** A binding's value: text (shown as `html` when given, e.g. isolated; a link target takes the text), raw HTML, or Markdown. */
export type BoundMarkdown = { text: string; html?: string } | { html: string } | { markdown: string };

/**
 * Renders Markdown with bindings. `valueOf(binding)` gives the text of a binding, a raw HTML marker (a page counter
 * in a header/footer) spliced in after rendering, or Markdown from data, rendered on its own with the same safe
 * subset (so it cannot open or close the template's own markup) and spliced in: as blocks when the binding is a
 * paragraph of its own, inline otherwise.
 */
export function renderMarkdown(
  segments: TemplateSegments,
  valueOf: (binding: Binding) => BoundMarkdown,
  admit: (size: { chars: number; lines: number }) => string | null = () => null,
): {
  html: string;
  unsafeLinks: string[];
  /** Images (`![alt](src)`) shown as their alt text. */
  images: string[];
  /** Why `admit` refused the Markdown, which was then not parsed (html is empty). */
  refused?: string;
} {
  const { source, bindings } = withPlaceholders(segments);
  const values = bindings.map((b) => valueOf(b));
  // the size with the values filled in, before any of it is parsed (DocumentCaps)
  const literal = segments.filter((s): s is string => typeof s === 'string').join('');
  let chars = literal.length;
  let lines = lineCount(literal);
  for (const v of values) {
    const text = 'text' in v ? v.text : 'markdown' in v ? v.markdown : '';
    chars += text.length;
    lines += lineCount(text) - 1;
  }
  const refused = admit({ chars, lines });
  if (refused !== null) return { html: '', unsafeLinks: [], images: [], refused };
  const tokens = md.parse(source, {});
  const images = unimage(tokens);
  flattenEmphasis(tokens);
  // unguessable, so text from data cannot forge a marker; drawn only when a marker is needed (most texts have none),
  // by randomUUID, which takes from a cached pool of random bytes (randomBytes(6) for every text: 3 % of an invoice)
  let nonce: string | undefined;
  const htmlMarkers: string[] = [];
  const unsafeLinks: string[] = [];
  const markerFor = (html: string): string => {
    nonce ??= randomUUID();
    htmlMarkers.push(html);
    return `dslhtml${nonce}n${htmlMarkers.length - 1}x`;
  };
  // A Markdown binding that is a paragraph of its own becomes block content.
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i].type !== 'paragraph_open' || tokens[i + 1].type !== 'inline' || tokens[i + 2].type !== 'paragraph_close') continue;
    const alone = /^dslbind(\d+)x$/.exec(tokens[i + 1].content.trim());
    const v = alone ? values[Number(alone[1])] : undefined;
    if (!v || !('markdown' in v)) continue;
    const block = new MarkdownToken('html_block', '', 0);
    block.content = markerFor(dataMarkdownHtml(v.markdown, true, unsafeLinks, images));
    tokens.splice(i, 3, block);
  }
  const textOf = (index: string): string => {
    const v = values[Number(index)];
    if (!v) return '';
    if ('text' in v) return v.html === undefined ? v.text : markerFor(v.html);
    if ('markdown' in v) return markerFor(dataMarkdownHtml(v.markdown, false, unsafeLinks, images));
    return markerFor(v.html);
  };
  forEachToken(tokens, (token, siblings, index) => {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'code_block' || token.type === 'fence') {
      token.content = token.content.replace(PLACEHOLDER, (_m, i: string) => textOf(i));
    } else if (token.type === 'link_open') {
      const href = hrefOf(token).replace(PLACEHOLDER, (_m, i: string) => {
        const v = values[Number(i)];
        return v && 'text' in v ? v.text : v && 'markdown' in v ? v.markdown : '';
      });
      if (SAFE_LINK.test(href.trim())) token.attrSet('href', href.trim());
      else {
        unsafeLinks.push(href);
        unlink(siblings, index);
      }
    }
  });
  let html = md.renderer.render(tokens, md.options, {});
  if (nonce !== undefined) html = html.replace(new RegExp(`dslhtml${nonce}n(\\d+)x`, 'g'), (_m, i: string) => htmlMarkers[Number(i)] ?? '');
  return { html, unsafeLinks, images };
}

/** Which type faces a Markdown text uses beyond the regular one. */
export interface MarkdownFaces {
  bold: boolean;
  italic: boolean;
  boldItalic: boolean;
  code: boolean;
}

export function markdownFaces(segments: TemplateSegments): MarkdownFaces {
  const { source } = withPlaceholders(segments);
  const faces: MarkdownFaces = { bold: false, italic: false, boldItalic: false, code: false };
  let strong = 0;
  let em = 0;
  let heading = 0;
  const note = (): void => {
    const b = strong > 0 || heading > 0;
    if (b && em > 0) faces.boldItalic = true;
    else if (b) faces.bold = true;
    else if (em > 0) faces.italic = true;
  };
  forEachToken(md.parse(source, {}), (token) => {
    switch (token.type) {
      case 'strong_open':
        strong++;
        break;
      case 'strong_close':
        strong--;
        break;
      case 'em_open':
        em++;
        break;
      case 'em_close':
        em--;
        break;
      case 'heading_open':
        heading++;
        break;
      case 'heading_close':
        heading--;
        break;
      case 'text':
        if (token.content.length > 0) note();
        break;
      case 'code_inline':
      case 'code_block':
      case 'fence':
        faces.code = true;
        break;
      default:
        break;
    }
  });
  return faces;
}
