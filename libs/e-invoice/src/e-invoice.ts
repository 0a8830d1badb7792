import { buildCiiXml } from './cii';
import { EInvoice, EInvoiceViolation } from './model';
import { EInvoiceProfile, PROFILES, ProfileInfo } from './profiles';
import { checkInvoice } from './rules';

export type EInvoiceResult =
  | { ok: true; profile: EInvoiceProfile; fileName: ProfileInfo['fileName']; xml: string }
  | { ok: false; profile: EInvoiceProfile; violations: EInvoiceViolation[] };

/**
 * An e-invoice from the model a template mapped: the product's own checks first, and the CII XML only when every rule
 * holds (an invalid e-invoice is not an invoice, issue 34 item 3). `fileName` is the name under which the XML is
 * embedded in the PDF/A-3 (factur-x.xml, or xrechnung.xml).
 */
export function createEInvoice(input: unknown, profile: EInvoiceProfile): EInvoiceResult {
  const violations = checkInvoice(input, profile);
  if (violations.length > 0) return { ok: false, profile, violations };
  return { ok: true, profile, fileName: PROFILES[profile].fileName, xml: buildCiiXml(input as EInvoice, profile) };
}
