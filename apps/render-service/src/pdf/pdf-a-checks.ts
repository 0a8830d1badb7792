import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFObject, PDFRawStream, PDFRef, PDFStream, PDFString } from '@cantoo/pdf-lib';
import type { PdfALevel } from './archival-pdf';

/** A rule of ISO 19005-2/3 (or of the service, for the XMP it keeps uncompressed) that the output does not meet. */
export type ConformanceFailure = { rule: string; message: string };

export type ArchivalExpectations = {
  level: PdfALevel | null;
  /** Names of the attachments that must be embedded and associated. */
  attachments: string[];
};

/**
 * The rules the service checks itself on every archival PDF it writes, without Java, by clause of ISO 19005-2/3
 * (the same numbers in both parts). docs/template-dsl.md ("Archival PDF") lists them; what they do not cover is
 * said there too (content-stream colour operators, font programs' inner consistency): the integration tests have
 * PDFBox Preflight judge those on real output.
 */
export const ARCHIVAL_RULES: Record<string, string> = {
  '6.1.2': 'file header: %PDF-1.n followed by a comment of four bytes above 127',
  '6.1.3': 'trailer /ID present, no /Encrypt',
  '6.1.7': 'streams: no external file (/F, /FFilter, /FDecodeParms), no LZWDecode',
  '6.2.3': 'one GTS_PDFA1 OutputIntent with a three-component (RGB) ICC profile',
  '6.2.4.3': 'no image in DeviceCMYK with an RGB output intent',
  '6.2.10': 'every page transparency group has a blending colour space (/CS)',
  '6.2.11.4': 'every font used is embedded (FontFile, FontFile2 or FontFile3), Type 3 fonts excepted',
  '6.2.11.7': 'conformance U: every font has a /ToUnicode map',
  '6.3.2': 'every annotation but Popup has the Print flag and none of Invisible, Hidden, NoView, ToggleNoView',
  '6.6.1': 'no JavaScript and no forbidden action (Launch, Sound, Movie, ResetForm, ImportData, JavaScript, Hide, SetOCGState, Rendition, Trans, GoTo3DView), no additional actions on the catalog or pages',
  '6.6.2.1': 'a Metadata stream in the catalog, uncompressed (the service keeps it readable for validators), declaring the PDF/A part and conformance asked for',
  '6.6.3': 'Info dictionary and XMP agree: Title, Author, Subject, Keywords, Creator, Producer, CreationDate, ModDate',
  '6.8': 'PDF/A-3: every embedded file has /F, /UF, /AFRelationship, a MIME /Subtype and is listed in the catalog /AF; PDF/A-2: no embedded file',
};

const FORBIDDEN_ACTIONS = new Set(['Launch', 'Sound', 'Movie', 'ResetForm', 'ImportData', 'JavaScript', 'Hide', 'SetOCGState', 'Rendition', 'Trans', 'GoTo3DView']);

/**
 * Checks `pdf` — the bytes written from `document` — against ARCHIVAL_RULES. With `level` null only the metadata
 * and attachment rules apply (6.6.3, 6.8 as for PDF/A-3).
 */
export function checkArchivalPdf(document: PDFDocument, pdf: Buffer, expected: ArchivalExpectations): { failures: ConformanceFailure[]; checked: string[] } {
  const failures: ConformanceFailure[] = [];
  const fail = (rule: string, message: string) => failures.push({ rule, message });
  const context = document.context;
  const catalog = document.catalog;
  const name = (key: string) => PDFName.of(key);
  const checked = expected.level === null ? ['6.6.3', '6.8'] : Object.keys(ARCHIVAL_RULES);
  const part = expected.level === null ? 3 : expected.level.startsWith('PDF/A-2') ? 2 : 3;

  const metadata = catalog.lookupMaybe(name('Metadata'), PDFStream);
  const xmp = metadata instanceof PDFRawStream && !metadata.dict.has(name('Filter')) ? Buffer.from(metadata.contents).toString('utf8') : null;
  checkInfoAgreesWithXmp(document, xmp, fail);
  checkEmbeddedFiles(document, part, expected.attachments, fail);
  if (expected.level === null) return { failures, checked };

  // 6.1.2 header
  const header = pdf.subarray(0, 16);
  const secondLine = header.indexOf(0x0a) + 1;
  if (!/^%PDF-1\.[0-7]/.test(header.toString('latin1')) || header[secondLine] !== 0x25 || ![1, 2, 3, 4].every((i) => header[secondLine + i] > 127)) {
    fail('6.1.2', 'the file header is not %PDF-1.n followed by a comment of four binary bytes');
  }
  // 6.1.3 trailer
  if (!(context.trailerInfo.ID instanceof PDFArray) || !/\/ID\s*\[/.test(pdf.toString('latin1', pdf.lastIndexOf('trailer')))) fail('6.1.3', 'the trailer has no /ID');
  if (context.trailerInfo.Encrypt !== undefined) fail('6.1.3', 'the file is encrypted');

  // 6.2.3 output intent
  const intents = catalog.lookupMaybe(name('OutputIntents'), PDFArray);
  const pdfa = intents?.asArray().map((i) => context.lookup(i)).filter((i): i is PDFDict => i instanceof PDFDict && i.get(name('S')) === name('GTS_PDFA1')) ?? [];
  const profile = pdfa[0]?.lookupMaybe(name('DestOutputProfile'), PDFStream);
  if (pdfa.length !== 1 || profile === undefined || profile.dict.lookupMaybe(name('N'), PDFNumber)?.asNumber() !== 3) {
    fail('6.2.3', 'there is not exactly one GTS_PDFA1 OutputIntent with an RGB ICC profile');
  }

  const conformanceU = expected.level.endsWith('u');
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : null;
    if (dict === null) continue;
    if (object instanceof PDFStream) {
      if (dict.has(name('F')) || dict.has(name('FFilter')) || dict.has(name('FDecodeParms'))) fail('6.1.7', `stream ${ref.toString()} refers to an external file`);
      const filters = dict.lookup(name('Filter'));
      const filterList = filters instanceof PDFArray ? filters.asArray() : filters === undefined ? [] : [filters];
      if (filterList.includes(name('LZWDecode'))) fail('6.1.7', `stream ${ref.toString()} uses LZWDecode`);
      if (dict.get(name('Subtype')) === name('Image') && dict.get(name('ColorSpace')) === name('DeviceCMYK')) {
        fail('6.2.4.3', `image ${ref.toString()} is in DeviceCMYK, the output intent is RGB`);
      }
      continue;
    }
    if (dict.get(name('Type')) === name('Font')) checkFont(ref, dict, conformanceU, fail);
    const action = dict.lookupMaybe(name('S'), PDFName);
    if (action !== undefined && (dict.get(name('Type')) === name('Action') || dict.has(name('JS'))) && FORBIDDEN_ACTIONS.has(action.decodeText())) {
      fail('6.6.1', `object ${ref.toString()} is a ${action.decodeText()} action`);
    }
  }
  const names = catalog.lookupMaybe(name('Names'), PDFDict);
  if (names?.has(name('JavaScript'))) fail('6.6.1', 'the catalog names JavaScript');
  if (catalog.has(name('AA'))) fail('6.6.1', 'the catalog has additional actions (/AA)');
  const openAction = catalog.lookup(name('OpenAction'));
  if (openAction instanceof PDFDict && isForbiddenAction(openAction)) fail('6.6.1', 'the open action is forbidden');

  document.getPages().forEach((page, index) => {
    const pageNumber = index + 1;
    if (page.node.has(name('AA'))) fail('6.6.1', `page ${pageNumber} has additional actions (/AA)`);
    const group = page.node.lookupMaybe(name('Group'), PDFDict);
    if (group !== undefined && group.get(name('S')) === name('Transparency') && !group.has(name('CS'))) {
      fail('6.2.10', `the transparency group of page ${pageNumber} has no blending colour space`);
    }
    const annotations = page.node.Annots();
    for (let i = 0; annotations !== undefined && i < annotations.size(); i++) {
      const annotation = annotations.lookupMaybe(i, PDFDict);
      if (annotation === undefined) continue;
      const subtype = annotation.lookupMaybe(name('Subtype'), PDFName)?.decodeText() ?? '?';
      const flags = annotation.lookupMaybe(name('F'), PDFNumber)?.asNumber() ?? 0;
      if (subtype !== 'Popup' && ((flags & 4) === 0 || (flags & (1 | 2 | 32 | 256)) !== 0)) {
        fail('6.3.2', `a ${subtype} annotation on page ${pageNumber} does not print or is hidden (flags ${flags})`);
      }
      if (annotation.has(name('AA'))) fail('6.6.1', `a ${subtype} annotation on page ${pageNumber} has additional actions (/AA)`);
      const annotationAction = annotation.lookup(name('A'));
      if (annotationAction instanceof PDFDict && isForbiddenAction(annotationAction)) fail('6.6.1', `a ${subtype} annotation on page ${pageNumber} has a forbidden action`);
    }
  });

  if (xmp === null) {
    fail('6.6.2.1', 'the catalog has no uncompressed XMP Metadata stream');
  } else {
    const { part: wantedPart, conformance } = { part: String(part), conformance: conformanceU ? 'U' : 'B' };
    if (xmpValue(xmp, 'pdfaid:part') !== wantedPart || xmpValue(xmp, 'pdfaid:conformance') !== conformance) {
      fail('6.6.2.1', `the XMP does not declare pdfaid:part ${wantedPart} and pdfaid:conformance ${conformance}`);
    }
  }
  return { failures, checked };
}

function isForbiddenAction(action: PDFDict): boolean {
  const type = action.lookupMaybe(PDFName.of('S'), PDFName);
  return type !== undefined && FORBIDDEN_ACTIONS.has(type.decodeText());
}

/** ISO 19005-2 6.2.11.4 (embedded) and, for conformance U, 6.2.11.7 (/ToUnicode); ISO 14289-1 7.21 asks the same of PDF/UA. */
export function checkFont(ref: PDFRef, font: PDFDict, conformanceU: boolean, fail: (rule: string, message: string) => void): void {
  const subtype = font.lookupMaybe(PDFName.of('Subtype'), PDFName)?.decodeText();
  const fontName = font.lookupMaybe(PDFName.of('BaseFont'), PDFName)?.decodeText() ?? ref.toString();
  if (subtype === 'CIDFontType0' || subtype === 'CIDFontType2') return; // judged through their Type 0 parent
  if (conformanceU && !font.has(PDFName.of('ToUnicode'))) fail('6.2.11.7', `font ${fontName} has no /ToUnicode map`);
  if (subtype === 'Type3') return;
  const descendant = subtype === 'Type0' ? font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray)?.lookupMaybe(0, PDFDict) : font;
  const descriptor = descendant?.lookupMaybe(PDFName.of('FontDescriptor'), PDFDict);
  if (descriptor === undefined || !['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor.has(PDFName.of(key)))) {
    fail('6.2.11.4', `font ${fontName} is not embedded`);
  }
}

/** The text of the first `<tag>…</tag>` in the XMP (inside rdf:Alt/Seq/Bag: the first rdf:li), entities decoded. */
export function xmpValue(xmp: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xmp);
  if (match === null) return null;
  const inner = /<rdf:li[^>]*>([\s\S]*?)<\/rdf:li>/.exec(match[1])?.[1] ?? match[1];
  return inner.replace(/&(amp|lt|gt|quot|apos);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e] ?? '');
}

/** ISO 19005-2 6.6.3: each Info entry has the same value in its XMP equivalent. */
function checkInfoAgreesWithXmp(document: PDFDocument, xmp: string | null, fail: (rule: string, message: string) => void): void {
  const info = document.context.lookupMaybe(document.context.trailerInfo.Info, PDFDict);
  if (info === undefined) return;
  const pairs: [string, string][] = [
    ['Title', 'dc:title'],
    ['Author', 'dc:creator'],
    ['Subject', 'dc:description'],
    ['Keywords', 'pdf:Keywords'],
    ['Creator', 'xmp:CreatorTool'],
    ['Producer', 'pdf:Producer'],
  ];
  for (const [key, tag] of pairs) {
    const value = textOf(info.lookup(PDFName.of(key)));
    if (value === null) continue;
    if (xmp === null || xmpValue(xmp, tag) !== value) fail('6.6.3', `Info /${key} and XMP ${tag} differ`);
  }
  for (const [key, tag] of [
    ['CreationDate', 'xmp:CreateDate'],
    ['ModDate', 'xmp:ModifyDate'],
  ]) {
    const value = textOf(info.lookup(PDFName.of(key)));
    if (value === null) continue;
    const infoTime = pdfDateTime(value);
    const xmpText = xmp === null ? null : xmpValue(xmp, tag);
    if (infoTime === null || xmpText === null || Date.parse(xmpText) !== infoTime) fail('6.6.3', `Info /${key} and XMP ${tag} differ`);
  }
}

function checkEmbeddedFiles(document: PDFDocument, part: 2 | 3, expected: string[], fail: (rule: string, message: string) => void): void {
  const catalog = document.catalog;
  const tree = catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const entries = tree?.lookupMaybe(PDFName.of('Names'), PDFArray)?.asArray() ?? [];
  if (tree?.has(PDFName.of('Kids'))) fail('6.8', 'the EmbeddedFiles name tree has kids the service does not write');
  if (part === 2 && entries.length > 0) fail('6.8', 'PDF/A-2 output carries embedded files');
  const associated = new Set((catalog.lookupMaybe(PDFName.of('AF'), PDFArray)?.asArray() ?? []).map((r) => r.toString()));
  const found = new Set<string>();
  for (let i = 0; i + 1 < entries.length; i += 2) {
    const key = textOf(entries[i]) ?? '?';
    const specRef = entries[i + 1];
    const spec = document.context.lookupMaybe(specRef, PDFDict);
    found.add(key);
    if (spec === undefined) {
      fail('6.8', `embedded file ${key} has no file specification`);
      continue;
    }
    if (!spec.has(PDFName.of('F')) || !spec.has(PDFName.of('UF'))) fail('6.8', `embedded file ${key} lacks /F or /UF`);
    if (!(spec.lookup(PDFName.of('AFRelationship')) instanceof PDFName)) fail('6.8', `embedded file ${key} has no /AFRelationship`);
    if (!associated.has(specRef.toString())) fail('6.8', `embedded file ${key} is not listed in the catalog /AF`);
    const stream = spec.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookupMaybe(PDFName.of('F'), PDFStream);
    if (stream === undefined || !(stream.dict.lookup(PDFName.of('Subtype')) instanceof PDFName)) fail('6.8', `embedded file ${key} has no MIME type (/Subtype)`);
  }
  for (const attachment of expected) if (!found.has(attachment)) fail('6.8', `attachment ${attachment} is not in the EmbeddedFiles name tree`);
}

function textOf(object: PDFObject | undefined): string | null {
  return object instanceof PDFString || object instanceof PDFHexString ? object.decodeText() : null;
}

/** Epoch milliseconds of a PDF date D:YYYYMMDDHHmmSS with Z or ±HH'mm'; null when it does not parse. */
function pdfDateTime(text: string): number | null {
  const m = /^D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(Z|([+-])(\d{2})'?(\d{2})'?)?/.exec(text);
  if (m === null) return null;
  const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  const offset = m[8] === undefined ? 0 : (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) * 60_000;
  return utc - offset;
}
