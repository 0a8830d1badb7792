import { EInvoice } from '../model';

/**
 * A German invoice of a solar installer: lines at 19 % and 7 % (category S) and photovoltaic modules at 0 %
 * (category Z, § 12 Abs. 3 UStG), a 5 % loyalty allowance on the 19 % goods, SEPA credit transfer. Every total is
 * written out, as a template prints it, so that the rules check them rather than compute them.
 */
export function germanInvoice(): EInvoice {
  return {
    number: 'RE-2026-0815',
    typeCode: '380',
    issueDate: '2026-11-29',
    currency: 'EUR',
    orderReference: 'B-4711',
    notes: [{ text: 'Muster Solar GmbH · Geschäftsführer: Max Muster · HRB 12345 B, Amtsgericht Charlottenburg', subjectCode: 'REG' }],
    seller: {
      name: 'Muster Solar GmbH',
      vatId: 'DE123456789',
      taxNumber: '27/123/45678',
      legalRegistration: { id: 'HRB 12345 B' },
      address: { line1: 'Sonnenallee 12', postcode: '12045', city: 'Berlin', country: 'DE' },
      contact: { name: 'Erika Muster', phone: '+49 30 1234567', email: 'buchhaltung@muster-solar.example' },
      electronicAddress: { id: 'rechnung@muster-solar.example', scheme: 'EM' },
    },
    buyer: {
      name: 'Beispiel Handel AG',
      vatId: 'DE987654321',
      address: { line1: 'Industriestraße 5', line2: 'Halle 3', postcode: '80331', city: 'München', country: 'DE' },
      electronicAddress: { id: 'eingangsrechnung@beispiel-handel.example', scheme: 'EM' },
    },
    deliveryDate: '2026-11-20',
    lines: [
      { id: '1', name: 'Wechselrichter WR-5000', sellerItemId: 'WR5000', quantity: 2, unit: 'H87', netPrice: 850, netAmount: 1700, vat: { category: 'S', rate: 19 } },
      { id: '2', name: 'Montage', description: 'Montage der Anlage vor Ort', quantity: 6, unit: 'HUR', netPrice: '75.00', netAmount: '450.00', vat: { category: 'S', rate: 19 } },
      { id: '3', name: 'Fachbuch Photovoltaik', quantity: 3, unit: 'H87', netPrice: 39.9, netAmount: 119.7, vat: { category: 'S', rate: 7 } },
      { id: '4', name: 'Photovoltaikmodul 400 W', quantity: 10, unit: 'H87', netPrice: 189, netAmount: 1890, vat: { category: 'Z', rate: 0 } },
    ],
    allowancesCharges: [
      { charge: false, amount: 107.5, basis: 2150, percent: 5, reason: 'Treuerabatt', reasonCode: '95', vat: { category: 'S', rate: 19 } },
    ],
    vatBreakdown: [
      { category: 'S', rate: 19, basis: 2042.5, tax: 388.08 },
      { category: 'S', rate: 7, basis: 119.7, tax: 8.38 },
      { category: 'Z', rate: 0, basis: 1890, tax: 0 },
    ],
    totals: { lineTotal: 4159.7, allowanceTotal: 107.5, taxBasisTotal: 4052.2, taxTotal: 396.46, grandTotal: 4448.66, duePayable: 4448.66 },
    payment: {
      meansCode: '58',
      meansText: 'SEPA-Überweisung',
      reference: 'RE-2026-0815',
      iban: 'DE02 1203 0000 0000 2020 51',
      accountName: 'Muster Solar GmbH',
      bic: 'BYLADEM1001',
      terms: 'Zahlbar innerhalb von 14 Tagen ohne Abzug.',
      dueDate: '2026-12-13',
    },
  };
}

/**
 * The XRechnung variant for a public buyer: the Leitweg-ID as buyer reference, and the third rate an exempt training
 * (category E, § 4 Nr. 21 UStG) instead of the zero-rated modules.
 */
export function germanXRechnung(): EInvoice {
  const invoice = germanInvoice();
  return {
    ...invoice,
    buyerReference: '04011000-12345-34',
    buyer: { ...invoice.buyer, name: 'Stadtwerke Beispielstadt', vatId: 'DE811111111' },
    lines: [
      ...invoice.lines.slice(0, 3),
      { id: '4', name: 'Schulung Anlagenbetrieb', quantity: 1, unit: 'C62', netPrice: 600, netAmount: 600, vat: { category: 'E', rate: 0 } },
    ],
    vatBreakdown: [
      ...invoice.vatBreakdown.slice(0, 2),
      { category: 'E', rate: 0, basis: 600, tax: 0, exemptionReason: 'Steuerfrei nach § 4 Nr. 21 UStG' },
    ],
    totals: { lineTotal: 2869.7, allowanceTotal: 107.5, taxBasisTotal: 2762.2, taxTotal: 396.46, grandTotal: 3158.66, duePayable: 3158.66 },
  };
}
