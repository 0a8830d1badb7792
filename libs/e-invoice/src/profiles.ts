import { E_INVOICE_PROFILES, type EInvoiceProfile } from '@docrender/contracts';

/**
 * The e-invoice profiles a template can declare (E_INVOICE_PROFILES of @docrender/contracts, where a document's
 * conformance names them too). Factur-X 1.09 and ZUGFeRD 2.3 are one standard with two names; the profiles are nested
 * (each carries what the one before carries, and more). XRechnung (CII syntax) carries the EN 16931 data with the
 * German guideline id.
 */
export { E_INVOICE_PROFILES, type EInvoiceProfile };

export interface ProfileInfo {
  /** BT-24, the specification identifier written to GuidelineSpecifiedDocumentContextParameter. */
  guidelineId: string;
  /** BT-23, the business process, where the profile asks for one (XRechnung). */
  businessProcessId?: string;
  /**
   * What the profile carries: 0 MINIMUM (header and totals), 1 BASIC WL (+ VAT breakdown, document allowances and
   * charges, payment, notes), 2 BASIC (+ invoice lines), 3 EN 16931 (+ contacts, BIC, item details, rounding).
   * EXTENDED and XRechnung carry at least what EN 16931 does.
   */
  level: 0 | 1 | 2 | 3;
  /** Name of the embedded file (Factur-X 1.09 section 6; XRechnung in a PDF is embedded under its own name). */
  fileName: 'factur-x.xml' | 'xrechnung.xml';
  /** The Factur-X XMP `fx:ConformanceLevel` (absent for XRechnung, which is not a Factur-X profile). */
  conformanceLevel?: 'MINIMUM' | 'BASIC WL' | 'BASIC' | 'EN 16931' | 'EXTENDED';
  /** The name used in issue texts and docs. */
  label: string;
}

export const PROFILES: Record<EInvoiceProfile, ProfileInfo> = {
  minimum: { guidelineId: 'urn:factur-x.eu:1p0:minimum', level: 0, fileName: 'factur-x.xml', conformanceLevel: 'MINIMUM', label: 'Factur-X / ZUGFeRD MINIMUM' },
  basicwl: { guidelineId: 'urn:factur-x.eu:1p0:basicwl', level: 1, fileName: 'factur-x.xml', conformanceLevel: 'BASIC WL', label: 'Factur-X / ZUGFeRD BASIC WL' },
  basic: { guidelineId: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic', level: 2, fileName: 'factur-x.xml', conformanceLevel: 'BASIC', label: 'Factur-X / ZUGFeRD BASIC' },
  en16931: { guidelineId: 'urn:cen.eu:en16931:2017', level: 3, fileName: 'factur-x.xml', conformanceLevel: 'EN 16931', label: 'Factur-X / ZUGFeRD EN 16931' },
  extended: { guidelineId: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended', level: 3, fileName: 'factur-x.xml', conformanceLevel: 'EXTENDED', label: 'Factur-X / ZUGFeRD EXTENDED' },
  xrechnung: {
    guidelineId: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    businessProcessId: 'urn:fdc:peppol.eu:2017:poacc:billing:01.0',
    level: 3,
    fileName: 'xrechnung.xml',
    label: 'XRechnung 3.0 (CII)',
  },
};

export function isEInvoiceProfile(value: unknown): value is EInvoiceProfile {
  return typeof value === 'string' && (E_INVOICE_PROFILES as readonly string[]).includes(value);
}
