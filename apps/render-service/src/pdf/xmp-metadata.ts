/**
 * The XMP metadata packet of an archival PDF (ISO 16684-1; ISO 19005-2/3 6.6): the document information the Info
 * dictionary holds, said the same way (ISO 19005-2 6.6.3 table of equivalents), the PDF/A identification, and any
 * extension schemas (ISO 19005-2 6.6.2.3.3) with their property values — the Factur-X `fx:` schema, for example.
 */

export type PdfAPart = 2 | 3;
export type PdfAConformance = 'B' | 'U';

/** What the Info dictionary and the XMP both say; null fields are left out of both. */
export type DocumentInfo = {
  title: string;
  author: string | null;
  subject: string | null;
  /** Info /Keywords and pdf:Keywords: one string (the template's keywords joined with ", "). */
  keywords: string | null;
  /** Info /Creator and xmp:CreatorTool: the application that made the original. */
  creator: string;
  /** Info /Producer and pdf:Producer. */
  producer: string;
  /** BCP 47 tag: the catalog's /Lang and dc:language. */
  language: string | null;
  /** /CreationDate and /ModDate, xmp:CreateDate, xmp:ModifyDate and xmp:MetadataDate. */
  created: Date;
};

/** One property of an XMP extension schema: declared in pdfaExtension:schemas and given its value. */
export type XmpExtensionProperty = {
  name: string;
  /** XMP value type (Text for Factur-X, Integer for pdfuaid:part). */
  valueType: 'Text' | 'Integer';
  category: 'external' | 'internal';
  description: string;
  value: string;
};

/** An XMP extension schema (ISO 19005-2 6.6.2.3.3), e.g. Factur-X's `fx:` schema. */
export type XmpExtensionSchema = {
  namespaceUri: string;
  prefix: string;
  /** pdfaSchema:schema: the schema's human-readable name. */
  schema: string;
  properties: XmpExtensionProperty[];
};

export type XmpPacketInput = {
  info: DocumentInfo;
  /** PDF/A identification; null for a PDF that claims no PDF/A part. */
  pdfA: { part: PdfAPart; conformance: PdfAConformance } | null;
  extensions: XmpExtensionSchema[];
};

/** XML text with the five predefined entities escaped; characters XML 1.0 forbids are dropped. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** An XMP date (ISO 8601, UTC): 2026-11-29T05:40:00Z, the same instant as pdfDate's D:20261129054000+00'00'. */
export function xmpDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** The XMP packet as UTF-8 bytes, with a writable padding the XMP specification recommends. */
export function xmpPacket(input: XmpPacketInput): Buffer {
  const { info, pdfA, extensions } = input;
  const alt = (text: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${xmlText(text)}</rdf:li></rdf:Alt>`;
  const date = xmpDate(info.created);
  const descriptions: string[] = [];
  const description = (namespaces: string, body: string) => descriptions.push(`<rdf:Description rdf:about=""${namespaces}>\n${body}\n</rdf:Description>`);

  description(
    ' xmlns:dc="http://purl.org/dc/elements/1.1/"',
    [
      '<dc:format>application/pdf</dc:format>',
      `<dc:title>${alt(info.title)}</dc:title>`,
      info.author === null ? '' : `<dc:creator><rdf:Seq><rdf:li>${xmlText(info.author)}</rdf:li></rdf:Seq></dc:creator>`,
      info.subject === null ? '' : `<dc:description>${alt(info.subject)}</dc:description>`,
      info.language === null ? '' : `<dc:language><rdf:Bag><rdf:li>${xmlText(info.language)}</rdf:li></rdf:Bag></dc:language>`,
    ]
      .filter((line) => line !== '')
      .join('\n'),
  );
  description(
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
    `<xmp:CreatorTool>${xmlText(info.creator)}</xmp:CreatorTool>\n<xmp:CreateDate>${date}</xmp:CreateDate>\n<xmp:ModifyDate>${date}</xmp:ModifyDate>\n<xmp:MetadataDate>${date}</xmp:MetadataDate>`,
  );
  description(
    ' xmlns:pdf="http://ns.adobe.com/pdf/1.3/"',
    `<pdf:Producer>${xmlText(info.producer)}</pdf:Producer>${info.keywords === null ? '' : `\n<pdf:Keywords>${xmlText(info.keywords)}</pdf:Keywords>`}`,
  );
  if (pdfA !== null) {
    description(' xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"', `<pdfaid:part>${pdfA.part}</pdfaid:part>\n<pdfaid:conformance>${pdfA.conformance}</pdfaid:conformance>`);
  }
  if (extensions.length > 0) {
    description(
      ' xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#"',
      `<pdfaExtension:schemas><rdf:Bag>\n${extensions.map(extensionDeclaration).join('\n')}\n</rdf:Bag></pdfaExtension:schemas>`,
    );
    for (const extension of extensions) {
      description(
        ` xmlns:${extension.prefix}="${xmlText(extension.namespaceUri)}"`,
        extension.properties.map((p) => `<${extension.prefix}:${p.name}>${xmlText(p.value)}</${extension.prefix}:${p.name}>`).join('\n'),
      );
    }
  }
  const packet =
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n' +
    `${descriptions.join('\n')}\n</rdf:RDF>\n</x:xmpmeta>\n${' '.repeat(1024)}\n<?xpacket end="w"?>`;
  return Buffer.from(packet, 'utf8');
}

function extensionDeclaration(extension: XmpExtensionSchema): string {
  const properties = extension.properties
    .map(
      (p) =>
        `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${xmlText(p.name)}</pdfaProperty:name><pdfaProperty:valueType>${p.valueType}</pdfaProperty:valueType>` +
        `<pdfaProperty:category>${p.category}</pdfaProperty:category><pdfaProperty:description>${xmlText(p.description)}</pdfaProperty:description></rdf:li>`,
    )
    .join('\n');
  return (
    `<rdf:li rdf:parseType="Resource">\n<pdfaSchema:schema>${xmlText(extension.schema)}</pdfaSchema:schema>\n` +
    `<pdfaSchema:namespaceURI>${xmlText(extension.namespaceUri)}</pdfaSchema:namespaceURI>\n<pdfaSchema:prefix>${xmlText(extension.prefix)}</pdfaSchema:prefix>\n` +
    `<pdfaSchema:property><rdf:Seq>\n${properties}\n</rdf:Seq></pdfaSchema:property>\n</rdf:li>`
  );
}
