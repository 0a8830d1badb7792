import { decodeHTML } from 'entities';

/**
 * The DangerousContent rules for one string of document data (spec 7.3), as stated in docs/template-dsl.md
 * ("Dangerous content") and docs/decisions/0008-dangerous-content.md.
 *
 * Values are escaped by construction, so an angle bracket is never a danger in itself: the check looks for payloads —
 * what would run or load something if the text reached a browser, a mail client or another system as markup — after
 * undoing what an attacker would encode (HTML entities, percent-encoding, JavaScript escapes, control characters in a
 * scheme, Base64). It reports the first finding, or null.
 *
 * Every scan is linear in the text: regular expressions have bounded repetitions, the tag reader never revisits
 * what it read, decoding runs a bounded number of rounds, and Base64 runs are decoded only as far as needed.
 */
export function dangerIn(text: string): string | null {
  return dangerAt(text, 0);
}

/** Base64 payloads inside Base64 payloads are followed this deep. */
const MAX_NESTING = 2;
/** Decoding rounds (each: HTML entities, percent-encoding, JavaScript escapes, UTF-7): enough for double encoding and mixes. */
const MAX_DECODE_ROUNDS = 4;
/** Longest Base64 text payload decoded and scanned (bytes of Base64 text). */
const MAX_DECODED_PAYLOAD = 1024 * 1024;

function dangerAt(text: string, nesting: number): string | null {
  if (!mayCarryPayload(text)) return null;
  for (const view of decodedViews(text)) {
    const runs = [...runsOf(view, MIN_HEX_RUN)];
    const executable = executableIn(view, runs);
    if (executable) return `an embedded executable (${executable})`;
    const injection = injectionIn(view);
    if (injection) return `script or HTML injection (${injection})`;
    const payload = nesting < MAX_NESTING ? encodedPayloadIn(runs, nesting) : null;
    if (payload) return payload;
  }
  return null;
}

/**
 * Cheap first tests: text without any of these characters, an event-handler shape, an executable's first bytes or a
 * run of 16 Base64/hex characters cannot carry a payload (most strings of most documents). Separate simple scans: one
 * regular expression with all of them as alternatives is several times slower on long text.
 */
const PAYLOAD_CHARACTER = /[<&%\\:\x00-\x08\x7f]|\+[A-Za-z0-9/]{3}/;
const HANDLER_SHAPE = /on[a-z]+\s*=/i;
const EXECUTABLE_START = /^(?:\xfe|\xce|\xcf|\xca|#!|MZ)/;

function mayCarryPayload(text: string): boolean {
  return PAYLOAD_CHARACTER.test(text) || HANDLER_SHAPE.test(text) || EXECUTABLE_START.test(text) || runsOf(text, MIN_HEX_RUN).next().done === false;
}

// ---------------------------------------------------------------------------------------------------------------
// Decoding

/**
 * The text, then the text with one more round of decoding applied, until nothing changes: HTML entities (named,
 * decimal, hex, with or without the semicolon, as browsers decode them), percent-encoding (UTF-8, else Latin-1 bytes),
 * JavaScript escapes (`\x3c`, `\u003c`, `\u{3c}`), UTF-7 (`+ADw-`). Every view is scanned, so neither under- nor over-decoding hides a payload.
 */
/** Something to decode: an entity, a percent or backslash escape, a UTF-7 shifted run. */
const ENCODED = /[&%\\]|\+[A-Za-z0-9/]{3}/;

function decodedViews(text: string): string[] {
  const views = [text];
  if (!ENCODED.test(text)) return views;
  let current = text;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    const next = decodeUtf7(decodeJsEscapes(decodePercent(decodeHTML(current))));
    if (next === current) break;
    views.push(next);
    current = next;
  }
  return views;
}

function decodePercent(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

/** UTF-7 shifted runs (`+ADw-` is `<`), which old browsers honoured in pages sniffed as UTF-7. */
function decodeUtf7(text: string): string {
  if (!text.includes('+')) return text;
  return text.replace(/\+([A-Za-z0-9+/]{3,})-?/g, (whole, run: string) => {
    const bytes = Buffer.from(run, 'base64');
    if (bytes.length < 2) return whole;
    let out = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(bytes.readUInt16BE(i));
    return out;
  });
}

function decodeJsEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]{1,6})\})/g, (whole, x?: string, u?: string, cp?: string) => {
    const code = parseInt(x ?? u ?? cp ?? '', 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Injection in markup

/** What browsers ignore or strip inside and before a URL scheme (C0 controls, space, DEL); at most a few at each gap. */
const GAP = '[\\x00-\\x20\\x7f]{0,4}';
const spaced = (word: string): string => word.split('').join(GAP);

/**
 * Script URL schemes, with control characters and whitespace tolerated between their letters (`java\tscript:`), not
 * preceded by a character that would make them part of a longer scheme.
 */
const SCRIPT_SCHEME = new RegExp(`(?<![A-Za-z0-9+.-])(${['javascript', 'vbscript', 'livescript'].map(spaced).join('|')})${GAP}:`, 'gi');

/**
 * What follows a script scheme when it is code: a call, a tagged template or an assignment. Right after the colon any
 * `(`, backtick or `=` on the line will do (`javascript:alert(1)`, `javascript://%0aalert(1)`); after a space it must be
 * code-shaped (`javascript: alert(1)`), so "JavaScript: The Good Parts (2008)" is a book title.
 */
const CODE_AFTER_COLON = /^[^\n]{0,200}?[(`=]/;
const CODE_AFTER_SPACE = /^[^\n]{0,200}?(?:[\w$)\]]\(|[\w$]`|[\w$)\]]\s*=)/;

/** `data:` URLs whose content a browser runs as a page or a script (with the payload after the comma). */
const DATA_DOCUMENT = new RegExp(
  `(?<![A-Za-z0-9+.-])${spaced('data')}${GAP}:\\s{0,8}(text/html|application/xhtml\\+xml|(?:text|application)/(?:x-)?(?:java|ecma)script|text/vbscript)\\s{0,8}(?:;[^,]{0,200})?,`,
  'i',
);

/** Elements that run script whatever their attributes. */
const SCRIPT_ELEMENTS = new Set(['script']);
/** Elements that load and show another document or plug-in when given any attribute (`<object>` alone is `List<Object>`). */
const EMBEDDING_ELEMENTS = new Set(['iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'fencedframe']);
/** Elements that are harmless without a particular attribute: `<link to the handbook>`, `<base price>`. */
const LOADING_ATTRIBUTE: Record<string, string[]> = {
  link: ['href', 'imagesrcset'],
  base: ['href'],
  meta: ['http-equiv'],
  import: ['implementation'],
};

/** Event-handler attributes: `on` + an event name of HTML, SVG or old browsers. `online`, `once`, `onto` are not. */
const EVENT_HANDLER =
  /^on(?:abort|activate|afterprint|afterscriptexecute|animation\w+|auxclick|before\w+|begin|blur|bounce|cancel|canplay\w*|change|click|close|command|content\w+|context\w+|copy|cuechange|cut|dblclick|deactivate|drag\w*|drop|durationchange|emptied|end|ended|error|finish|focus\w*|formdata|fullscreen\w+|gotpointercapture|hashchange|help|input|invalid|key\w+|load\w*|lostpointercapture|message\w*|mouse\w+|moz\w+|offline|online|pagehide|pagereveal|pageshow|pageswap|paste|pause|play|playing|pointer\w+|popstate|progress|propertychange|ratechange|readystatechange|repeat|reset|resize|scroll\w*|search|securitypolicyviolation|seeked|seeking|select\w*|show|slotchange|stalled|start|storage|submit|suspend|timeupdate|toggle|touch\w+|transition\w+|unload|volumechange|waiting|webkit\w+|wheel|zoom)$/;

/** An event-handler attribute written outside a tag (`" onmouseover="alert(1)`, `x onerror=alert(1)`), with its value. */
const LOOSE_EVENT_HANDLER = /(?<![\w-])(on[a-z]+)\s*=\s*(?:"([^"]{0,200})|'([^']{0,200})|`([^`]{0,200})|([^\s>]{1,200}))/gi;
/** A handler value that is code: a call, a tagged template, an assignment. `onload = false` is not. */
const HANDLER_CODE = /[(`=]/;

/** CSS that runs script or loads something, where it is CSS: a style element or a style attribute. */
const CSS_PAYLOAD = /expression\s*\(|@import|behavior\s*:|-moz-binding|url\s*\(/i;

/** CSS as the CSS parser reads it: comments removed (`expr` + a comment + `ession(`), escapes decoded (`\\65 xpression(`). */
function cssPayloadIn(css: string): string | null {
  const plain = css
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')
    .replace(/\\([0-9A-Fa-f]{1,6})\s?/g, (whole, hex: string) => (parseInt(hex, 16) <= 0x10ffff ? String.fromCodePoint(parseInt(hex, 16)) : whole))
    .replace(/\\(.)/g, '$1');
  const found = CSS_PAYLOAD.exec(plain);
  return found ? found[0].replace(/\s+/g, '') : null;
}

/** A CSS declaration whose value is an IE expression, wherever it stands (`width: expression(alert(1))`). */
const CSS_EXPRESSION_DECLARATION = /[a-z-]\s*:\s*expression\s*\(/i;

/** XML that reads files or loads style sheets: external entities, processing instructions. */
const XML_PAYLOAD = /<!ENTITY\s[^>]{0,200}?\b(?:SYSTEM|PUBLIC)\b|<\?xml-stylesheet/i;

const TAG_START = /<(\/?)([A-Za-z][^\s/>\x00]*)/g;

/** A script element's start or end tag, wherever it stands (even inside what reads as another tag's attribute). */
const SCRIPT_TAG = /<\/?script(?=[\s/>]|$)/i;

/** Names the first injection payload in the text, or null. */
export function injectionIn(text: string): string | null {
  if (!/[a-z]/i.test(text)) return null;
  const scheme = schemeIn(text);
  if (scheme) return scheme;
  const data = DATA_DOCUMENT.exec(text);
  if (data) return `a data: URL of ${data[1].toLowerCase()}`;
  if (text.includes('<')) {
    const script = SCRIPT_TAG.exec(text);
    if (script) return script[0].startsWith('</') ? 'a </script> tag' : 'a <script> element';
    const found = tagIn(text) ?? xmlIn(text);
    if (found) return found;
  }
  if (CSS_EXPRESSION_DECLARATION.test(text)) return 'a CSS expression()';
  return looseHandlerIn(text);
}

function schemeIn(text: string): string | null {
  for (const m of text.matchAll(SCRIPT_SCHEME)) {
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 220);
    if ((/^\s/.test(rest) ? CODE_AFTER_SPACE : CODE_AFTER_COLON).test(rest)) return `a ${m[1].replace(/[\x00-\x20\x7f]/g, '').toLowerCase()}: URL`;
  }
  return null;
}

function looseHandlerIn(text: string): string | null {
  for (const m of text.matchAll(LOOSE_EVENT_HANDLER)) {
    const name = m[1].toLowerCase();
    const value = m[2] ?? m[3] ?? m[4] ?? m[5] ?? '';
    if (EVENT_HANDLER.test(name) && HANDLER_CODE.test(value)) return `an event handler attribute ${name}=`;
  }
  return null;
}

function xmlIn(text: string): string | null {
  const xml = XML_PAYLOAD.exec(text);
  return xml ? (xml[0].startsWith('<?') ? 'an XML style sheet instruction' : 'an XML external entity') : null;
}

type Attribute = { name: string; value: string | null };
type Tag = { name: string; closing: boolean; attributes: Attribute[]; end: number };

/** Reads the tags of the text as an HTML tokenizer would (`/` separates attributes too) and names the first dangerous one. */
function tagIn(text: string): string | null {
  const tags = new RegExp(TAG_START);
  for (let m = tags.exec(text); m !== null; m = tags.exec(text)) {
    const tag = readTag(text, m.index + m[0].length, m[2].toLowerCase(), m[1] === '/');
    const found = dangerousTag(tag);
    if (found) return found;
    let next = Math.max(tag.end, m.index + 1);
    if (tag.name === 'style' && !tag.closing) {
      // A style element's content is CSS up to </style> (raw text, no tags in it): read once, then go on after it.
      const styleEnd = new RegExp(STYLE_END);
      styleEnd.lastIndex = tag.end;
      const close = styleEnd.exec(text);
      next = close ? close.index : text.length;
      const css = cssPayloadIn(text.slice(tag.end, next));
      if (css) return `CSS ${css} in a <style> element`;
    }
    tags.lastIndex = next;
  }
  return null;
}

const STYLE_END = /<\/style/gi;

function readTag(text: string, from: number, name: string, closing: boolean): Tag {
  const attributes: Attribute[] = [];
  let i = from;
  const n = text.length;
  const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
  while (i < n) {
    while (i < n && (isSpace(text[i]) || text[i] === '/')) i++;
    if (i >= n || text[i] === '>') break;
    const nameStart = i;
    i++; // the first character may be anything (even '='), as in the HTML tokenizer
    while (i < n && !isSpace(text[i]) && text[i] !== '/' && text[i] !== '>' && text[i] !== '=') i++;
    const attribute: Attribute = { name: text.slice(nameStart, i).toLowerCase(), value: null };
    let j = i;
    while (j < n && isSpace(text[j])) j++;
    if (j < n && text[j] === '=') {
      j++;
      while (j < n && isSpace(text[j])) j++;
      const quote = text[j];
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, j + 1);
        const end = close < 0 ? n : close;
        attribute.value = text.slice(j + 1, end);
        i = end + 1;
      } else {
        const start = j;
        while (j < n && !isSpace(text[j]) && text[j] !== '>') j++;
        attribute.value = text.slice(start, j);
        i = j;
      }
    }
    attributes.push(attribute);
  }
  return { name, closing, attributes, end: Math.min(i + 1, n) };
}

function dangerousTag(tag: Tag): string | null {
  const { name, attributes } = tag;
  if (SCRIPT_ELEMENTS.has(name)) return tag.closing ? `a </${name}> tag` : `a <${name}> element`;
  if (tag.closing) return null;
  const handler = attributes.find((a) => a.value !== null && EVENT_HANDLER.test(a.name));
  if (handler) return `an event handler attribute ${handler.name}= on <${name}>`;
  if (EMBEDDING_ELEMENTS.has(name) && attributes.length > 0) return `an <${name}> element`;
  const loading = LOADING_ATTRIBUTE[name]?.find((wanted) => attributes.some((a) => a.name === wanted && a.value !== null));
  if (loading) return `a <${name} ${loading}=…> element`;
  if (attributes.some((a) => a.name === 'srcdoc' && a.value !== null)) return `a srcdoc attribute on <${name}>`;
  for (const a of attributes) {
    const css = a.name === 'style' && a.value !== null ? cssPayloadIn(a.value) : null;
    if (css) return `CSS ${css} in a style attribute`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Executables and encoded payloads

const SIGNATURES: { name: string; bytes: number[] }[] = [
  { name: 'a Linux executable (ELF)', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { name: 'a macOS executable (Mach-O)', bytes: [0xfe, 0xed, 0xfa, 0xce] },
  { name: 'a macOS executable (Mach-O)', bytes: [0xfe, 0xed, 0xfa, 0xcf] },
  { name: 'a macOS executable (Mach-O)', bytes: [0xce, 0xfa, 0xed, 0xfe] },
  { name: 'a macOS executable (Mach-O)', bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { name: 'a macOS universal executable or Java class', bytes: [0xca, 0xfe, 0xba, 0xbe] },
  { name: 'a WebAssembly module', bytes: [0x00, 0x61, 0x73, 0x6d] },
];
const PE = 'a Windows executable (PE/MZ)';
const DOS_STUB = 'This program cannot be run in DOS mode';

/** Names the executable format that starts these bytes (a string's char codes, or decoded bytes), or null. */
function executableHead(head: ArrayLike<number>): string | null {
  const at = (i: number): number => (i < head.length ? head[i] : -1);
  for (const s of SIGNATURES) if (s.bytes.every((b, i) => at(i) === b)) return s.name;
  if (at(0) === 0x23 && at(1) === 0x21 && (at(2) === 0x2f || (at(2) === 0x20 && at(3) === 0x2f))) return 'a script with an interpreter line (#!/)';
  if (at(0) === 0x4d && at(1) === 0x5a) {
    // "MZ" is two letters: a DOS header follows them with NUL bytes (e_cblp, e_cp, e_crlc, …); words do not.
    let nuls = 0;
    for (let i = 2; i < Math.min(head.length, 16); i++) if (at(i) === 0) nuls++;
    if (nuls >= 3) return PE;
  }
  return null;
}

/** Names the executable format a string carries (raw, or Base64/Base64url/hex, bare or in a data URI), or null. */
export function executableIn(text: string, runs: Iterable<string> = runsOf(text, MIN_HEX_RUN)): string | null {
  if (text.length < 4) return null;
  const raw = executableHead(Array.from(text.slice(0, 16), (c) => c.charCodeAt(0)));
  if (raw) return raw;
  if (text.startsWith('MZ') && text.includes(DOS_STUB)) return PE;
  return encodedExecutableIn(runs);
}

/** Shortest Base64/Base64url run looked at (18 bytes), and hex run (8 bytes). */
const MIN_BASE64_RUN = 24;
const MIN_HEX_RUN = 16;

const isRunCharacter = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2b || c === 0x2f || c === 0x5f || c === 0x2d;

/** Maximal runs of Base64/Base64url characters of at least `min` characters, in one pass (a regex would re-scan). */
function* runsOf(text: string, min: number): Generator<string> {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && isRunCharacter(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start >= min) yield text.slice(start, i);
      start = -1;
    }
  }
}

function base64Bytes(run: string): Buffer {
  return Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** An executable in one of the text's runs of at least MIN_HEX_RUN Base64/hex characters. */
function encodedExecutableIn(runs: Iterable<string>): string | null {
  for (const run of runs) {
    if (/^[0-9A-Fa-f]+$/.test(run.slice(0, 32))) {
      const hit = executableHead(Buffer.from(run.slice(0, 32), 'hex'));
      if (hit) return hit;
    }
    if (run.length < MIN_BASE64_RUN) continue;
    const head = base64Bytes(run.slice(0, 24));
    const hit = executableHead(head);
    if (hit) return hit;
    if (head[0] === 0x4d && head[1] === 0x5a && base64Bytes(run.slice(0, 200)).toString('latin1').includes(DOS_STUB)) return PE;
  }
  return null;
}

/** Share of printable characters above which decoded Base64 is taken as text (a script, a page) and scanned. */
const TEXT_SHARE = 0.9;

/** A Base64 run that decodes to text carrying a payload (`PHNjcmlwdD4…` is `<script>…`), named; or null. */
function encodedPayloadIn(runs: string[], nesting: number): string | null {
  for (const run of runs) {
    if (run.length < MIN_BASE64_RUN || !looksLikeText(base64Bytes(run.slice(0, 96)))) continue;
    const decoded = base64Bytes(run.slice(0, MAX_DECODED_PAYLOAD)).toString('utf8');
    const found = dangerAt(decoded, nesting + 1);
    if (found) return `${found} in Base64`;
  }
  return null;
}

/** Mostly printable ASCII: random bytes (images, archives, keys) are about 40 % printable, text nearly 100 %. */
function looksLikeText(bytes: Buffer): boolean {
  if (bytes.length < 12) return false;
  let printable = 0;
  for (const b of bytes) if ((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d) printable++;
  return printable / bytes.length >= TEXT_SHARE;
}
