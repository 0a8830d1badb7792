import type { EInvoiceProfile } from '@docrender/contracts';
import type { CompiledEInvoice } from '@docrender/template-dsl';
import type { AttachmentRelationship, PdfAttachment } from './archival-pdf';
import type { XmpExtensionSchema } from './xmp-metadata';

/** Factur-X 1.0 conformance levels (fx:ConformanceLevel), and XRECHNUNG for an XRechnung CII file. */
export type FacturXConformanceLevel = 'MINIMUM' | 'BASIC WL' | 'BASIC' | 'EN 16931' | 'EXTENDED' | 'XRECHNUNG';

export type EInvoiceFile = {
  /** The profile the XML was built and checked for (the document's conformance names it). */
  profile: EInvoiceProfile;
  /** The CII XML, as built and validated by @docrender/e-invoice (a Uint8Array once it has crossed to a thread). */
  xml: Uint8Array;
  /** `factur-x.xml` (Factur-X / ZUGFeRD) or `xrechnung.xml` (XRechnung). */
  fileName: 'factur-x.xml' | 'xrechnung.xml';
  conformanceLevel: FacturXConformanceLevel;
  /**
   * How the XML relates to the PDF: `Alternative` (the XML is the invoice, the PDF its visual; Factur-X for
   * EN 16931 and above), `Data` (Factur-X MINIMUM and BASIC WL, and XRechnung), or `Source`.
   */
  relationship: Extract<AttachmentRelationship, 'Alternative' | 'Data' | 'Source'>;
};

/** The Factur-X XMP namespace (Factur-X 1.0 specification, 6.2.2; the same URI for every 1.0.x). */
export const FACTUR_X_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

/**
 * What an e-invoice adds to an archival PDF: the XML as an attachment (`text/xml`, with its relationship) and the
 * Factur-X XMP extension schema (`fx:` DocumentType INVOICE, DocumentFileName, Version 1.0, ConformanceLevel) the
 * Factur-X specification asks for. Hand both to makeArchivalPdf with a PDF/A-3 level:
 *
 *     const invoice = facturXAttachment({ xml, fileName: 'factur-x.xml', conformanceLevel: 'EN 16931', relationship: 'Alternative' });
 *     await makeArchivalPdf(printed, { level: 'PDF/A-3b', info, attachments: [...attachments, invoice.attachment],
 *       xmpExtensions: [invoice.xmpExtension], outputIntent });
 *
 * The service's own checks (pdf-a-checks.ts, rule 6.8) then prove the file is embedded and listed in /AF.
 */
export function facturXAttachment(invoice: EInvoiceFile): { attachment: PdfAttachment; xmpExtension: XmpExtensionSchema } {
  const property = (name: string, description: string, value: string) => ({ name, valueType: 'Text' as const, category: 'external' as const, description, value });
  return {
    attachment: {
      name: invoice.fileName,
      mimeType: 'text/xml',
      description: invoice.fileName === 'xrechnung.xml' ? 'XRechnung invoice' : 'Factur-X/ZUGFeRD invoice',
      relationship: invoice.relationship,
      bytes: invoice.xml,
    },
    xmpExtension: {
      namespaceUri: FACTUR_X_NAMESPACE,
      prefix: 'fx',
      schema: 'Factur-X PDFA Extension Schema',
      properties: [
        property('DocumentFileName', 'The name of the embedded XML document', invoice.fileName),
        property('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER', 'INVOICE'),
        property('Version', 'The actual version of the standard applying to the embedded XML document', '1.0'),
        property('ConformanceLevel', 'The conformance level of the embedded XML document', invoice.conformanceLevel),
      ],
    },
  };
}

/**
 * The file a compiled document's e-invoice (compileDocument's `eInvoice`, already checked against its profile's rules)
 * embeds, or null without one. The relationship follows the Factur-X specification: from BASIC up the XML is the
 * invoice and the PDF its rendering (`Alternative`); MINIMUM and BASIC WL carry too little to be the invoice
 * (`Data`); an XRechnung file is the invoice, embedded as `Data` as the KoSIT guidance does.
 */
export function eInvoiceFileOf(compiled: CompiledEInvoice | null): EInvoiceFile | null {
  if (compiled === null) return null;
  const relationship = compiled.profile === 'basic' || compiled.profile === 'en16931' || compiled.profile === 'extended' ? 'Alternative' : 'Data';
  return { profile: compiled.profile, xml: Buffer.from(compiled.xml, 'utf8'), fileName: compiled.fileName, conformanceLevel: compiled.conformanceLevel ?? 'XRECHNUNG', relationship };
}
