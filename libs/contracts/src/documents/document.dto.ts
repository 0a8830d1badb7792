import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Environment } from '../environment';
import { DocumentType } from './document-type';

/** PDF/A levels a template can ask for (docs/template-dsl.md, "Archival PDF"). */
export const PDF_A_LEVELS = ['PDF/A-2b', 'PDF/A-2u', 'PDF/A-3b', 'PDF/A-3u'] as const;

/** PDF/UA parts a template can ask for (docs/template-dsl.md, "Accessible PDF (PDF/UA)"). */
export const PDF_UA_LEVELS = ['PDF/UA-1'] as const;

/**
 * The e-invoice profiles a template can declare (docs/template-dsl.md, E-invoices): Factur-X / ZUGFeRD MINIMUM,
 * BASIC WL, BASIC, EN 16931, EXTENDED, and XRechnung (CII).
 */
export const E_INVOICE_PROFILES = ['minimum', 'basicwl', 'basic', 'en16931', 'extended', 'xrechnung'] as const;
export type EInvoiceProfile = (typeof E_INVOICE_PROFILES)[number];

/**
 * What a document was asked to conform to and what the service's own checks found (decision 0032). An output that
 * fails its own checks is never stored or returned, so a delivered document's `checks` is `passed` for what it asked,
 * or `none` when it asked for nothing.
 */
export type DocumentConformance = {
  /** The PDF/A level the template asked for, or null for a plain PDF. */
  pdfA: (typeof PDF_A_LEVELS)[number] | null;
  /** The PDF/UA part the template asked for, or null. */
  pdfUA: (typeof PDF_UA_LEVELS)[number] | null;
  checks: 'passed' | 'none';
  /** The rules the service checked (clauses of ISO 19005-2/3; those of ISO 14289-1 prefixed "UA "). */
  rules: string[];
  /** The e-invoice profile whose XML the PDF carries (checked against the profile's rules before embedding), or null. */
  eInvoice: EInvoiceProfile | null;
};

/** The conformance of a plain PDF: nothing asked. Every document stored before conformance was recorded was one. */
export const PLAIN_PDF_CONFORMANCE: DocumentConformance = { pdfA: null, pdfUA: null, checks: 'none', rules: [], eInvoice: null };

/**
 * The raw-PDF response header value of a document's conformance: what it claims (`PDF/A-3b`, `PDF/UA-1`, or both:
 * `PDF/A-3b, PDF/UA-1`) and `; checks=passed`, with `; e-invoice=en16931` when it carries an e-invoice; or `none`.
 */
export function conformanceHeader(conformance: DocumentConformance | undefined): string {
  const claims = [conformance?.pdfA ?? null, conformance?.pdfUA ?? null].filter((claim) => claim !== null);
  if (conformance === undefined || claims.length === 0) return 'none';
  const invoice = conformance.eInvoice == null ? '' : `; e-invoice=${conformance.eInvoice}`;
  return `${claims.join(', ')}; checks=${conformance.checks}${invoice}`;
}

/** A string property that holds one of `values` or null: with OpenAPI 3.0 `nullable`, an enum must name null itself. */
function ApiNullableEnum(values: readonly string[], description: string): PropertyDecorator {
  return ApiProperty({ type: String, enum: [...values, null], nullable: true, description });
}

/** OpenAPI of DocumentConformance. */
export class DocumentConformanceDto {
  @ApiNullableEnum(PDF_A_LEVELS, 'The PDF/A level the template asked for; null for a plain PDF.')
  pdfA!: DocumentConformance['pdfA'];
  @ApiNullableEnum(PDF_UA_LEVELS, 'The PDF/UA part the template asked for (accessible PDF, checked by the rules docs/template-dsl.md lists); null when none.')
  pdfUA!: DocumentConformance['pdfUA'];
  @ApiProperty({ enum: ['passed', 'none'], description: 'passed: the output met every rule checked for what was asked; none: nothing was asked.' })
  checks!: DocumentConformance['checks'];
  @ApiProperty({ type: [String], description: 'The rules checked (clauses of ISO 19005-2/3; those of ISO 14289-1, PDF/UA, prefixed "UA ").' })
  rules!: string[];
  @ApiNullableEnum(
    E_INVOICE_PROFILES,
    'The e-invoice profile whose XML (factur-x.xml or xrechnung.xml) the PDF carries, checked against the profile\'s rules before it was embedded; null when none.',
  )
  eInvoice!: DocumentConformance['eInvoice'];
}

/** Fields shared by spec 2.4 and 2.5. */
class DocumentFieldsDto {
  @ApiProperty({ description: "From the version's document-name template; no file extension." }) documentName!: string;
  @ApiProperty({ format: 'uuid' }) templateId!: string;
  @ApiProperty() versionNumber!: number;
  @ApiProperty({ enum: Environment }) environment!: Environment;
  @ApiProperty() fileSizeBytes!: number;
  @ApiProperty() pageCount!: number;
  @ApiProperty({ format: 'date-time' }) renderedAt!: string;
  @ApiProperty({ description: 'Server-side render time, milliseconds.' }) renderDuration!: number;
  @ApiProperty({ enum: DocumentType }) documentType!: DocumentType;
  @ApiProperty({ type: String, nullable: true }) language!: string | null;
}

/** Spec 2.4: stored document metadata. */
export class StoredDocumentDto extends DocumentFieldsDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'Signed download link valid 7 days from generation of the response; empty string when isPdfDeleted.' })
  viewUrl!: string;
  @ApiProperty({ description: 'True when retention purged the stored PDF while metadata remains.' }) isPdfDeleted!: boolean;
  @ApiProperty({
    type: () => DocumentConformanceDto,
    description: "What the document asked to conform to (PDF/A) and the result of the service's own checks (decision 0032); a plain PDF's (pdfA null, checks none) for documents stored before it was recorded, which were all plain PDFs.",
  })
  conformance!: DocumentConformance;
}

/** Spec 2.5: a rendered document inside a render envelope. */
export class RenderedDocumentDto extends DocumentFieldsDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null when persist=false' }) id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'null when persist=false' }) viewUrl!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'PDF bytes, Base64; only when includeDocument=true or persist=false' })
  documentBase64!: string | null;
  @ApiProperty({ description: "Zero-based position in the request's documents array." }) documentIndex!: number;
  @ApiPropertyOptional({
    type: () => DocumentConformanceDto,
    description: "What the document asked to conform to (PDF/A) and the result of the service's own checks (decision 0032); absent only from callbacks of services older than it.",
  })
  conformance?: DocumentConformance;
}
