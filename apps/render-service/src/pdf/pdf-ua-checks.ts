import { decodePDFRawStream, PDFArray, PDFBool, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFObject, PDFRawStream, PDFRef, PDFString } from '@cantoo/pdf-lib';
import { unaccountedPainting } from './content-marking';
import { checkFont, type ConformanceFailure, xmpValue } from './pdf-a-checks';
import { PDF_UA_NAMESPACE } from './pdf-ua';

/**
 * The rules of ISO 14289-1 (PDF/UA-1) the service checks itself on every output that claims PDF/UA, without Java,
 * named "UA <clause>" (docs/template-dsl.md, "Accessible PDF (PDF/UA)", lists them and what they leave out).
 */
export const PDF_UA_RULES: Record<string, string> = {
  'UA 5': 'the XMP metadata declares pdfuaid:part 1, and the pdfuaid schema as an XMP extension schema',
  'UA 7.1 tagged': 'the catalog has /MarkInfo /Marked true and a structure tree (/StructTreeRoot)',
  'UA 7.1 content': 'every painting operation of every page is real content (in a marked-content sequence with an MCID) or an artifact, and marked content is balanced',
  'UA 7.1 types': 'every structure element has a standard structure type of ISO 32000-1 14.8.4 or a role map entry to one',
  'UA 7.1 title': 'the XMP has a non-empty dc:title and /ViewerPreferences /DisplayDocTitle is true',
  'UA 7.2': 'the catalog /Lang names the natural language',
  'UA 7.3': 'every Figure has alternative text (/Alt or /ActualText)',
  'UA 7.4': 'headings are numbered (H1 to H6, no H), the first is H1 and no level is skipped going down',
  'UA 7.5': 'every table header cell (TH) has a /Scope attribute',
  'UA 7.18': 'every annotation but Popup is in the structure tree (/StructParent), every link has /Contents, every page with annotations has /Tabs /S',
  'UA 7.21': 'every font used is embedded and has a /ToUnicode map',
};

/** The standard structure types of ISO 32000-1 14.8.4 (PDF/UA-1 rests on PDF 1.7). */
const STANDARD_TYPES = new Set([
  'Document', 'Part', 'Art', 'Sect', 'Div', 'BlockQuote', 'Caption', 'TOC', 'TOCI', 'Index', 'NonStruct', 'Private',
  'P', 'H', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'L', 'LI', 'Lbl', 'LBody', 'Table', 'TR', 'TH', 'TD', 'THead', 'TBody', 'TFoot',
  'Span', 'Quote', 'Note', 'Reference', 'BibEntry', 'Code', 'Link', 'Annot', 'Ruby', 'RB', 'RT', 'RP', 'Warichu', 'WT', 'WP',
  'Figure', 'Formula', 'Form',
]);

/**
 * Checks a document written for PDF/UA-1 against PDF_UA_RULES: the pdf-lib model just serialised (no second parse)
 * and its uncompressed XMP text (null when there is none).
 */
export function checkPdfUA(document: PDFDocument, xmp: string | null): ConformanceFailure[] {
  const failures: ConformanceFailure[] = [];
  const fail = (rule: string, message: string) => failures.push({ rule, message });
  const context = document.context;
  const catalog = document.catalog;
  const name = (key: string) => PDFName.of(key);

  if (xmp === null || xmpValue(xmp, 'pdfuaid:part') !== '1') fail('UA 5', 'the XMP does not declare pdfuaid:part 1');
  else if (!xmp.includes(`<pdfaSchema:namespaceURI>${PDF_UA_NAMESPACE}</pdfaSchema:namespaceURI>`)) fail('UA 5', 'the XMP does not declare the pdfuaid extension schema');
  if (!(xmp !== null && (xmpValue(xmp, 'dc:title') ?? '').trim() !== '')) fail('UA 7.1 title', 'the XMP has no dc:title');
  if (catalog.lookupMaybe(name('ViewerPreferences'), PDFDict)?.lookup(name('DisplayDocTitle')) !== PDFBool.True) {
    fail('UA 7.1 title', 'the viewer preferences do not show the document title (/DisplayDocTitle)');
  }
  const language = textOf(catalog.lookup(name('Lang')));
  if (language === null || language.trim() === '') fail('UA 7.2', 'the catalog has no /Lang');

  const markInfo = catalog.lookupMaybe(name('MarkInfo'), PDFDict);
  const root = catalog.lookupMaybe(name('StructTreeRoot'), PDFDict);
  if (markInfo?.lookup(name('Marked')) !== PDFBool.True || root === undefined) {
    fail('UA 7.1 tagged', 'the document is not tagged (no /MarkInfo /Marked true or no structure tree)');
  } else {
    checkStructure(document, root, fail);
  }

  document.getPages().forEach((page, index) => {
    const pageNumber = index + 1;
    const contents = page.node.get(name('Contents'));
    const refs = contents instanceof PDFArray ? contents.asArray() : contents === undefined ? [] : [contents];
    for (const ref of refs) {
      const stream = context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      const { operators, balanced } = unaccountedPainting(decodePDFRawStream(stream).decode());
      if (operators.length > 0) fail('UA 7.1 content', `page ${pageNumber} paints ${operators.length} time(s) outside real content and artifacts (first: ${operators[0]})`);
      if (!balanced) fail('UA 7.1 content', `the marked content of page ${pageNumber} is not balanced`);
    }
    const annotations = page.node.Annots();
    if (annotations === undefined || annotations.size() === 0) return;
    if (page.node.get(name('Tabs')) !== name('S')) fail('UA 7.18', `page ${pageNumber} has annotations and no /Tabs /S`);
    for (let i = 0; i < annotations.size(); i++) {
      const annotation = annotations.lookupMaybe(i, PDFDict);
      const subtype = annotation?.lookupMaybe(name('Subtype'), PDFName)?.decodeText();
      if (annotation === undefined || subtype === 'Popup') continue;
      if (!(annotation.lookup(name('StructParent')) instanceof PDFNumber)) fail('UA 7.18', `a ${subtype ?? '?'} annotation on page ${pageNumber} is not in the structure tree`);
      if (subtype === 'Link' && (textOf(annotation.lookup(name('Contents'))) ?? '') === '') fail('UA 7.18', `a link on page ${pageNumber} has no /Contents`);
    }
  });

  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && object.get(name('Type')) === name('Font')) {
      checkFont(ref, object, true, (_rule, message) => fail('UA 7.21', message));
    }
  }
  return failures;
}

/** Walks the structure tree in reading order: types, figures, headings, table header cells. */
function checkStructure(document: PDFDocument, root: PDFDict, fail: (rule: string, message: string) => void): void {
  const roleMap = root.lookupMaybe(PDFName.of('RoleMap'), PDFDict);
  const standard = (type: string): string | null => {
    let current = type;
    for (let hops = 0; hops < 8; hops++) {
      if (STANDARD_TYPES.has(current)) return current;
      const mapped = roleMap?.lookupMaybe(PDFName.of(current), PDFName);
      if (mapped === undefined) return null;
      current = mapped.decodeText();
    }
    return null;
  };
  const unmapped = new Set<string>();
  let figuresWithoutAlt = 0;
  let headersWithoutScope = 0;
  let previousHeading = 0;
  const seen = new Set<PDFObject>();
  const visit = (object: PDFObject | undefined): void => {
    const node = object instanceof PDFRef ? document.context.lookup(object) : object;
    if (node instanceof PDFArray) {
      for (const kid of node.asArray()) visit(kid);
      return;
    }
    if (!(node instanceof PDFDict) || seen.has(node)) return;
    seen.add(node);
    const typeName = node.lookupMaybe(PDFName.of('S'), PDFName);
    if (typeName !== undefined) {
      const type = typeName.decodeText();
      const resolved = standard(type);
      if (resolved === null) unmapped.add(type);
      if (resolved === 'Figure' && (textOf(node.lookup(PDFName.of('Alt'))) ?? textOf(node.lookup(PDFName.of('ActualText'))) ?? '').trim() === '') figuresWithoutAlt++;
      if (resolved === 'TH' && !hasScope(document, node)) headersWithoutScope++;
      if (resolved === 'H') fail('UA 7.4', 'a heading is an unnumbered H');
      const level = resolved !== null && /^H[1-6]$/.test(resolved) ? Number(resolved[1]) : 0;
      if (level > 0) {
        if (previousHeading === 0 && level !== 1) fail('UA 7.4', `the first heading is H${level}, not H1`);
        else if (level > previousHeading + 1 && previousHeading > 0) fail('UA 7.4', `heading H${level} follows H${previousHeading}: a level is skipped`);
        previousHeading = level;
      }
    }
    visit(node.get(PDFName.of('K')));
  };
  visit(root.get(PDFName.of('K')));
  if (unmapped.size > 0) fail('UA 7.1 types', `structure types without a standard role: ${[...unmapped].sort().join(', ')}`);
  if (figuresWithoutAlt > 0) fail('UA 7.3', `${figuresWithoutAlt} figure(s) have no alternative text`);
  if (headersWithoutScope > 0) fail('UA 7.5', `${headersWithoutScope} table header cell(s) have no /Scope`);
}

/** A TH's attributes (a dictionary or an array of them, with revision numbers) name a /Scope. */
function hasScope(document: PDFDocument, cell: PDFDict): boolean {
  const attributes = cell.lookup(PDFName.of('A'));
  const all = attributes instanceof PDFArray ? attributes.asArray().map((a) => document.context.lookup(a)) : [attributes];
  return all.some((a) => a instanceof PDFDict && a.lookup(PDFName.of('Scope')) instanceof PDFName);
}

function textOf(object: PDFObject | undefined): string | null {
  return object instanceof PDFString || object instanceof PDFHexString ? object.decodeText() : null;
}
