import MarkdownIt from 'markdown-it';
import { Binding, TemplateSegments } from '../binding/binding-syntax';

/**
 * The safe Markdown subset of rich text: paragraphs, line breaks, emphasis, strikethrough, headings,
 * lists, block quotes, code, rules and links (https, http, mailto, tel). Raw HTML is shown as text
 * (`html: false`) and images are disabled (they would load from the network).
 *
 * Bindings are replaced by placeholders before parsing and their values put into the parsed tokens, so a
 * value is always text: markup or Markdown in data cannot change the structure, and a bound link target is
 * checked after substitution.
 */

const md = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false, breaks: true });
md.enable(['strikethrough']);
md.disable(['image']);

const SAFE_LINK = /^(https?:\/\/|mailto:|tel:)/i;
const PLACEHOLDER = /dslbind(\d+)x/g;
const STARTS_WITH_PLACEHOLDER = /^dslbind\d+x/;
md.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim()) || STARTS_WITH_PLACEHOLDER.test(url.trim());

type Token = MarkdownIt.Token;

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

/**
 * Renders Markdown with bindings. `valueOf(binding)` gives the text of a binding, or a raw HTML marker
 * (a page counter in a header/footer) which is spliced in after rendering.
 */
export function renderMarkdown(segments: TemplateSegments, valueOf: (binding: Binding) => { text: string } | { html: string }): {
  html: string;
  unsafeLinks: string[];
} {
  const { source, bindings } = withPlaceholders(segments);
  const tokens = md.parse(source, {});
  const values = bindings.map((b) => valueOf(b));
  const htmlMarkers: string[] = [];
  const textOf = (index: string): string => {
    const v = values[Number(index)];
    if (!v) return '';
    if ('text' in v) return v.text;
    htmlMarkers.push(v.html);
    return `dslhtml${htmlMarkers.length - 1}x`;
  };
  const unsafeLinks: string[] = [];
  forEachToken(tokens, (token, siblings, index) => {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'code_block' || token.type === 'fence') {
      token.content = token.content.replace(PLACEHOLDER, (_m, i: string) => textOf(i));
    } else if (token.type === 'link_open') {
      const href = (token.attrGet('href') ?? '').replace(PLACEHOLDER, (_m, i: string) => {
        const v = values[Number(i)];
        return v && 'text' in v ? v.text : '';
      });
      if (SAFE_LINK.test(href.trim())) token.attrSet('href', href.trim());
      else {
        unsafeLinks.push(href);
        unlink(siblings, index);
      }
    }
  });
  let html = md.renderer.render(tokens, md.options, {});
  if (htmlMarkers.length > 0) html = html.replace(/dslhtml(\d+)x/g, (_m, i: string) => htmlMarkers[Number(i)] ?? '');
  return { html, unsafeLinks };
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
