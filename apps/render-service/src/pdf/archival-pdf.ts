import { deflateSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFDocument, PDFHeader, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString } from '@cantoo/pdf-lib';
import { checkArchivalPdf, ConformanceFailure } from './pdf-a-checks';
import { makeAccessible, PDF_UA_1_IDENTIFICATION, type PdfUALevel } from './pdf-ua';
import { checkPdfUA, PDF_UA_RULES } from './pdf-ua-checks';
import { pdfDate, pdfTextString } from './pdf-metadata';
import { DocumentInfo, PdfAConformance, PdfAPart, XmpExtensionSchema, xmpPacket } from './xmp-metadata';
import { loadPdf, savePdf } from './paced-pdf';

/** The PDF/A levels the service writes (ISO 19005-2 and -3, conformance B and U). */
export type PdfALevel = 'PDF/A-2b' | 'PDF/A-2u' | 'PDF/A-3b' | 'PDF/A-3u';

export function pdfAIdentification(level: PdfALevel): { part: PdfAPart; conformance: PdfAConformance } {
  return { part: level.startsWith('PDF/A-2') ? 2 : 3, conformance: level.endsWith('u') ? 'U' : 'B' };
}

/** ISO 32000-2 14.13.2 AFRelationship of an associated file. */
export type AttachmentRelationship = 'Source' | 'Data' | 'Alternative' | 'Supplement' | 'Unspecified';

/** A file embedded in the PDF, listed in the catalog's /AF and its EmbeddedFiles name tree. */
export type PdfAttachment = {
  /** File name (the file specification's /F and /UF, and its key in EmbeddedFiles). */
  name: string;
  /** MIME type: the embedded file stream's /Subtype. */
  mimeType: string;
  description: string | null;
  relationship: AttachmentRelationship;
  bytes: Uint8Array;
};

/** The sRGB output intent: an ICC profile of three components (ISO 19005-2 6.2.3). */
export type OutputIntentProfile = {
  /** The ICC profile as read from its file. */
  icc: Uint8Array;
  /** /OutputConditionIdentifier and /Info, e.g. "sRGB IEC61966-2.1". */
  identifier: string;
};

export type ArchivalPdfRequest = {
  /** The PDF/A level to claim; null writes metadata and attachments without a PDF/A claim. */
  level: PdfALevel | null;
  /** The PDF/UA part to claim (the print must be tagged); null claims none. */
  pdfUA: PdfUALevel | null;
  info: DocumentInfo;
  attachments: PdfAttachment[];
  /** XMP extension schemas with their values (the Factur-X schema of an e-invoice: facturXAttachment). */
  xmpExtensions: XmpExtensionSchema[];
  outputIntent: OutputIntentProfile;
};

export type ArchivalPdfOutcome =
  | { conformant: true; pdf: Buffer; checked: string[] }
  /** The output fails one of the service's own checks: it must not be stored or returned. */
  | { conformant: false; failures: ConformanceFailure[]; checked: string[] };

/** Annotation flags (ISO 32000-1 12.5.3): Invisible 1, Hidden 2, Print 4, NoView 32, ToggleNoView 256. */
const PRINT_FLAG = 4;
const FORBIDDEN_FLAGS = 1 | 2 | 32 | 256;

/** The deflated ICC profile per profile, made once: every document shares the bytes. */
const deflatedProfiles = new WeakMap<Uint8Array, Buffer>();

/**
 * The post-processing stage of archival output: Chromium's PDF is loaded with pdf-lib and written anew (classic
 * cross-reference table, no object streams) with
 * - the Info dictionary and an uncompressed XMP metadata stream saying the same (title, author, subject, keywords,
 *   creator, producer, dates; language also as the catalog's /Lang), the PDF/A identification and extension schemas;
 * - an sRGB OutputIntent (GTS_PDFA1) with the ICC profile;
 * - a trailer /ID (MD5 of the printed bytes and the creation time, as ISO 32000-1 14.4 suggests);
 * - every annotation with the Print flag and without the hiding flags, every page transparency group with a blending
 *   colour space (/CS /DeviceRGB, the output intent's space);
 * - the attachments as embedded files with /AFRelationship, in the EmbeddedFiles name tree (sorted) and /AF;
 * - for PDF/UA, the pdfuaid identification in the XMP and what makeAccessible (pdf-ua.ts) adds to the tagged print.
 * The result then goes through the service's own checks (pdf-a-checks.ts, pdf-ua-checks.ts); a failed check means
 * no PDF.
 */
export async function makeArchivalPdf(printed: Buffer, request: ArchivalPdfRequest): Promise<ArchivalPdfOutcome> {
  const document = await loadPdf(printed);
  const context = document.context;
  // PDF/A-2 and -3 build on PDF 1.7 (ISO 32000-1). Chromium's print declares 1.4, and @cantoo/pdf-lib, unlike
  // pdf-lib 1.17, keeps a loaded file's header: the archival stage declares 1.7, as it always has.
  context.header = PDFHeader.forVersion(1, 7);
  const catalog = document.catalog;
  const { info } = request;

  const infoDict = context.obj({});
  const text = (value: string) => (/^[\x20-\x7e]*$/.test(value) ? PDFString.of(pdfTextString(value).slice(1, -1)) : PDFHexString.fromText(value));
  infoDict.set(PDFName.of('Title'), text(info.title));
  if (info.author !== null) infoDict.set(PDFName.of('Author'), text(info.author));
  if (info.subject !== null) infoDict.set(PDFName.of('Subject'), text(info.subject));
  if (info.keywords !== null) infoDict.set(PDFName.of('Keywords'), text(info.keywords));
  infoDict.set(PDFName.of('Creator'), text(info.creator));
  infoDict.set(PDFName.of('Producer'), text(info.producer));
  const date = PDFString.of(pdfDate(info.created));
  infoDict.set(PDFName.of('CreationDate'), date);
  infoDict.set(PDFName.of('ModDate'), date);
  context.trailerInfo.Info = context.register(infoDict);

  const identification = request.level === null ? null : pdfAIdentification(request.level);
  const extensions = request.pdfUA === null ? request.xmpExtensions : [...request.xmpExtensions, PDF_UA_1_IDENTIFICATION];
  const xmp = context.stream(xmpPacket({ info, pdfA: identification, extensions }), { Type: 'Metadata', Subtype: 'XML' });
  catalog.set(PDFName.of('Metadata'), context.register(xmp));
  if (info.language !== null) catalog.set(PDFName.of('Lang'), text(info.language));

  if (request.level !== null) {
    const profile = request.outputIntent;
    let deflated = deflatedProfiles.get(profile.icc);
    if (deflated === undefined) {
      deflated = deflateSync(profile.icc);
      deflatedProfiles.set(profile.icc, deflated);
    }
    const iccRef = context.register(context.stream(deflated, { N: 3, Filter: 'FlateDecode' }));
    const intent = context.obj({
      Type: 'OutputIntent',
      S: 'GTS_PDFA1',
      OutputConditionIdentifier: PDFString.of(profile.identifier),
      Info: PDFString.of(profile.identifier),
      RegistryName: PDFString.of('http://www.color.org'),
      DestOutputProfile: iccRef,
    });
    catalog.set(PDFName.of('OutputIntents'), context.obj([context.register(intent)]));
    for (const page of document.getPages()) {
      const group = page.node.lookupMaybe(PDFName.of('Group'), PDFDict);
      if (group !== undefined && group.get(PDFName.of('S')) === PDFName.of('Transparency') && !group.has(PDFName.of('CS'))) {
        group.set(PDFName.of('CS'), PDFName.of('DeviceRGB'));
      }
      const annotations = page.node.Annots();
      for (let i = 0; annotations !== undefined && i < annotations.size(); i++) {
        const annotation = annotations.lookupMaybe(i, PDFDict);
        if (annotation === undefined || annotation.get(PDFName.of('Subtype')) === PDFName.of('Popup')) continue;
        const flags = annotation.lookupMaybe(PDFName.of('F'), PDFNumber)?.asNumber() ?? 0;
        annotation.set(PDFName.of('F'), PDFNumber.of((flags | PRINT_FLAG) & ~FORBIDDEN_FLAGS));
      }
    }
  }

  const fileId = createHash('md5').update(printed).update(info.created.toISOString()).digest('hex').toUpperCase();
  context.trailerInfo.ID = context.obj([PDFHexString.of(fileId), PDFHexString.of(fileId)]);

  if (request.attachments.length > 0) embedAttachments(document, request.attachments, info.created);
  if (request.pdfUA !== null) makeAccessible(document);

  const pdf = await savePdf(document, { addDefaultPage: false, updateFieldAppearances: false });
  const { failures, checked } = checkArchivalPdf(document, pdf, { level: request.level, attachments: request.attachments.map((a) => a.name) });
  if (request.pdfUA !== null) {
    failures.push(...checkPdfUA(document, Buffer.from(xmp.getContents()).toString('utf8')));
    checked.push(...Object.keys(PDF_UA_RULES));
  }
  return failures.length === 0 ? { conformant: true, pdf, checked } : { conformant: false, failures, checked };
}

/**
 * Embedded file streams (compressed, with /Subtype = MIME type and /Params /Size, /ModDate) and their file
 * specifications (/F, /UF, /Desc, /AFRelationship), keyed by name in a sorted EmbeddedFiles name tree and listed in
 * the catalog's /AF (ISO 19005-3 6.8).
 */
function embedAttachments(document: PDFDocument, attachments: PdfAttachment[], modified: Date): void {
  const context = document.context;
  const catalog = document.catalog;
  const specs: [string, PDFRef][] = [];
  for (const attachment of attachments) {
    const stream = context.flateStream(attachment.bytes, {
      Type: 'EmbeddedFile',
      Subtype: attachment.mimeType,
      Params: { Size: attachment.bytes.length, ModDate: PDFString.of(pdfDate(modified)) },
    });
    const streamRef = context.register(stream);
    const name = /^[\x20-\x7e]*$/.test(attachment.name) ? PDFString.of(pdfTextString(attachment.name).slice(1, -1)) : PDFHexString.fromText(attachment.name);
    const spec = context.obj({
      Type: 'Filespec',
      F: name,
      UF: PDFHexString.fromText(attachment.name),
      EF: { F: streamRef, UF: streamRef },
      AFRelationship: attachment.relationship,
    });
    if (attachment.description !== null) spec.set(PDFName.of('Desc'), PDFHexString.fromText(attachment.description));
    specs.push([attachment.name, context.register(spec)]);
  }
  specs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let names = catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  if (names === undefined) {
    names = context.obj({});
    catalog.set(PDFName.of('Names'), names);
  }
  names.set(PDFName.of('EmbeddedFiles'), context.obj({ Names: specs.flatMap(([name, ref]) => [PDFHexString.fromText(name), ref]) }));
  const af = catalog.lookupMaybe(PDFName.of('AF'), PDFArray) ?? context.obj([]);
  for (const [, ref] of specs) af.push(ref);
  catalog.set(PDFName.of('AF'), af);
}
