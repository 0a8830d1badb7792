import { deflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFArray, PDFBool, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFRef, PDFString } from '@cantoo/pdf-lib';
import type { XmpExtensionSchema } from './xmp-metadata';
import { markUnmarkedAsArtifacts } from './content-marking';

/** The PDF/UA parts the service writes (ISO 14289-1). */
export type PdfUALevel = 'PDF/UA-1';

export const PDF_UA_NAMESPACE = 'http://www.aiim.org/pdfua/ns/id/';

/**
 * The PDF/UA identification (ISO 14289-1 5: `pdfuaid:part` in the XMP), as an XMP extension schema: PDF/A-2 and -3
 * accept only predefined or declared properties, and pdfuaid is not predefined there, so it is declared too.
 */
export const PDF_UA_1_IDENTIFICATION: XmpExtensionSchema = {
  namespaceUri: PDF_UA_NAMESPACE,
  prefix: 'pdfuaid',
  schema: 'PDF/UA Universal Accessibility Schema',
  properties: [{ name: 'part', valueType: 'Integer', category: 'internal', description: 'Indicates, which part of ISO 14289 standard is followed', value: '1' }],
};

/** Structure types of PDF 2.0 (ISO 32000-2 14.8.4) a tagged print may use, and the PDF 1.7 type each plays. */
const PDF_2_ROLES: Record<string, string> = { Strong: 'Span', Em: 'Span', Sub: 'Span', Title: 'P', Aside: 'Div', FENote: 'Note', DocumentFragment: 'Div' };

/**
 * What the accessible (PDF/UA-1) output needs beyond Chromium's tagged print, done on the loaded document before it
 * is written (Chromium already writes the structure tree, /MarkInfo, /Lang, /DisplayDocTitle, /Tabs /S and the
 * annotations' /StructParent; they are set here too where missing, and checked afterwards in pdf-ua-checks.ts):
 * - whatever the print left outside marked content (the page bands, watermarks, page backgrounds, decoration — the
 *   content Chromium does not tag) is marked as an artifact (ISO 14289-1 7.1);
 * - every link annotation has an alternate description in /Contents (7.18.5): its target;
 * - every page with annotations has /Tabs /S (7.18.3);
 * - the structure types PDF 2.0 added that Chromium writes (Strong, Em, …) are role-mapped to PDF 1.7 ones (7.1).
 */
export function makeAccessible(document: PDFDocument): void {
  const context = document.context;
  const catalog = document.catalog;
  const preferences = catalog.lookupMaybe(PDFName.of('ViewerPreferences'), PDFDict) ?? context.obj({});
  preferences.set(PDFName.of('DisplayDocTitle'), PDFBool.True);
  catalog.set(PDFName.of('ViewerPreferences'), preferences);

  const root = catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict);
  if (root !== undefined) {
    const roleMap = root.lookupMaybe(PDFName.of('RoleMap'), PDFDict) ?? context.obj({});
    for (const [type, role] of Object.entries(PDF_2_ROLES)) if (!roleMap.has(PDFName.of(type))) roleMap.set(PDFName.of(type), PDFName.of(role));
    root.set(PDFName.of('RoleMap'), roleMap);
  }

  for (const page of document.getPages()) {
    const contents = page.node.get(PDFName.of('Contents'));
    const refs = contents instanceof PDFArray ? contents.asArray() : contents === undefined ? [] : [contents];
    for (const ref of refs) {
      const stream = context.lookup(ref);
      if (!(ref instanceof PDFRef) || !(stream instanceof PDFRawStream)) continue;
      const marked = markUnmarkedAsArtifacts(decodePDFRawStream(stream).decode());
      // node's zlib, not pdf-lib's deflate in JavaScript: a tagged print of a few hundred pages has megabytes of content
      if (marked !== null) context.assign(ref, context.stream(deflateSync(marked), { Filter: 'FlateDecode' }));
    }
    const annotations = page.node.Annots();
    if (annotations === undefined || annotations.size() === 0) continue;
    page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
    for (let i = 0; i < annotations.size(); i++) {
      const annotation = annotations.lookupMaybe(i, PDFDict);
      if (annotation === undefined || annotation.get(PDFName.of('Subtype')) !== PDFName.of('Link') || annotation.has(PDFName.of('Contents'))) continue;
      annotation.set(PDFName.of('Contents'), PDFHexString.fromText(linkDescription(annotation)));
    }
  }
}

/** A link's alternate description: where it goes. */
function linkDescription(link: PDFDict): string {
  const action = link.lookupMaybe(PDFName.of('A'), PDFDict);
  const uri = action?.lookup(PDFName.of('URI'));
  if (uri instanceof PDFString || uri instanceof PDFHexString) return `Link to ${uri.decodeText()}`;
  return 'Link to another place in this document';
}
