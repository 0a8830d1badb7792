/**
 * The EN 16931 invoice model, as a template maps its data to it. Field comments name the business term (BT-n) of
 * EN 16931-1. Amounts, quantities, prices and rates are numbers or canonical decimal text ("1234.50"); dates are
 * ISO calendar dates ("2026-11-29"). Totals and VAT amounts are given, not computed: they are the figures the page
 * prints, and the rules check them against the lines, allowances and charges (an e-invoice whose XML disagrees with
 * its own sums, or with the printed page, is refused).
 */
export type DecimalInput = number | string;

export interface EInvoiceAddress {
  line1?: string; // BT-35 / BT-50
  line2?: string; // BT-36 / BT-51
  line3?: string; // BT-162 / BT-163
  postcode?: string; // BT-38 / BT-53
  city?: string; // BT-37 / BT-52
  countrySubdivision?: string; // BT-39 / BT-54
  country: string; // BT-40 / BT-55, ISO 3166-1 alpha-2
}

export interface EInvoiceContact {
  name?: string; // BT-41 / BT-56
  phone?: string; // BT-42 / BT-57
  email?: string; // BT-43 / BT-58
}

export interface SchemedId {
  id: string;
  /** ISO 6523 ICD (legal registration, global ids) or EAS code (electronic address, e.g. "EM" for e-mail). */
  scheme?: string;
}

export interface EInvoiceParty {
  name: string; // BT-27 / BT-44
  tradingName?: string; // BT-28 / BT-45
  /** BT-29 / BT-46: the party's identifier (a global id when it has a scheme). */
  id?: SchemedId;
  legalRegistration?: SchemedId; // BT-30 / BT-47
  vatId?: string; // BT-31 / BT-48
  /** BT-32: the seller's tax number (German Steuernummer). */
  taxNumber?: string;
  /** BT-33: additional legal information about the seller. */
  legalInfo?: string;
  electronicAddress?: SchemedId; // BT-34 / BT-49
  address?: EInvoiceAddress;
  contact?: EInvoiceContact;
}

/** UNTDID 5305 VAT category codes of EN 16931. */
export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

export interface VatOf {
  category: VatCategory; // BT-151 / BT-95 / BT-102
  /** BT-152 / BT-96 / BT-103 in percent; absent for category O (not subject to VAT). */
  rate?: DecimalInput;
}

export interface EInvoiceLine {
  id: string; // BT-126
  note?: string; // BT-127
  name: string; // BT-153
  description?: string; // BT-154
  sellerItemId?: string; // BT-155
  globalId?: SchemedId; // BT-157
  quantity: DecimalInput; // BT-129
  /** BT-130, UN/ECE Recommendation 20 (C62 one, H87 piece, HUR hour, DAY, KGM, …). */
  unit: string;
  /** BT-146, net price per price base quantity. */
  netPrice: DecimalInput;
  basisQuantity?: DecimalInput; // BT-149
  /** BT-131: quantity × net price ÷ base quantity, to the cent (line allowances are not part of this model). */
  netAmount: DecimalInput;
  vat: VatOf;
  period?: { start?: string; end?: string }; // BT-134, BT-135
}

export interface EInvoiceAllowanceCharge {
  /** false: an allowance (BG-20), true: a charge (BG-21). */
  charge: boolean;
  amount: DecimalInput; // BT-92 / BT-99
  basis?: DecimalInput; // BT-93 / BT-100
  percent?: DecimalInput; // BT-94 / BT-101
  reason?: string; // BT-97 / BT-104
  reasonCode?: string; // BT-98 / BT-105 (UNTDID 5189 / 7161)
  vat: VatOf;
}

export interface EInvoiceVatBreakdown {
  category: VatCategory; // BT-118
  rate?: DecimalInput; // BT-119 (0 for Z, E, AE, K, G; absent for O)
  basis: DecimalInput; // BT-116
  tax: DecimalInput; // BT-117
  exemptionReason?: string; // BT-120
  exemptionReasonCode?: string; // BT-121 (VATEX)
}

export interface EInvoiceTotals {
  lineTotal?: DecimalInput; // BT-106 (mandatory from BASIC WL on)
  allowanceTotal?: DecimalInput; // BT-107
  chargeTotal?: DecimalInput; // BT-108
  taxBasisTotal: DecimalInput; // BT-109
  taxTotal?: DecimalInput; // BT-110
  rounding?: DecimalInput; // BT-114
  grandTotal: DecimalInput; // BT-112
  prepaid?: DecimalInput; // BT-113
  duePayable: DecimalInput; // BT-115
}

export interface EInvoicePayment {
  /** BT-81, UNTDID 4461: 58 SEPA credit transfer, 30 credit transfer, 59 SEPA direct debit, 10 cash, 48 card. */
  meansCode: string;
  meansText?: string; // BT-82
  /** BT-83, the remittance information the payer quotes. */
  reference?: string;
  iban?: string; // BT-84
  accountName?: string; // BT-85
  bic?: string; // BT-86
  /** BT-20, the payment terms as text ("Zahlbar innerhalb 14 Tagen ohne Abzug"). */
  terms?: string;
  dueDate?: string; // BT-9
  mandateId?: string; // BT-89 (direct debit)
  creditorId?: string; // BT-90 (direct debit)
  debitedIban?: string; // BT-91 (direct debit)
}

export interface EInvoice {
  number: string; // BT-1
  /** BT-3, UNTDID 1001: 380 commercial invoice, 381 credit note, 384 corrected invoice, 326 partial invoice, 389 self-billed. */
  typeCode: string;
  issueDate: string; // BT-2
  currency: string; // BT-5, ISO 4217
  /** BT-10; the Leitweg-ID for XRechnung to German public buyers. */
  buyerReference?: string;
  orderReference?: string; // BT-13
  contractReference?: string; // BT-12
  notes?: { text: string; subjectCode?: string }[]; // BG-1
  seller: EInvoiceParty;
  buyer: EInvoiceParty;
  deliveryDate?: string; // BT-72
  period?: { start?: string; end?: string }; // BT-73, BT-74
  lines: EInvoiceLine[];
  allowancesCharges?: EInvoiceAllowanceCharge[];
  vatBreakdown: EInvoiceVatBreakdown[];
  totals: EInvoiceTotals;
  payment?: EInvoicePayment;
}

/** One failed rule: its id (an EN 16931 BR-*, a profile rule, or a DOCRENDER-* data rule) and the model path. */
export interface EInvoiceViolation {
  rule: string;
  /** Path in the model, e.g. `totals.grandTotal`, `lines[2].netAmount`, `vatBreakdown[0].tax`. */
  path: string;
  message: string;
}
