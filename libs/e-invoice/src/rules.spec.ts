import { checkInvoice } from './rules';
import { E_INVOICE_PROFILES, EInvoiceProfile } from './profiles';
import { EInvoice } from './model';
import { germanInvoice, germanXRechnung } from './test/german-invoice';

const rulesOf = (invoice: unknown, profile: EInvoiceProfile = 'en16931') => checkInvoice(invoice, profile).map((v) => `${v.rule} ${v.path}`);

function changed(edit: (invoice: EInvoice) => void, base: () => EInvoice = germanInvoice): EInvoice {
  const invoice = base();
  edit(invoice);
  return invoice;
}

describe('issue 34 item 3: the product’s own EN 16931 checks', () => {
  it.each(E_INVOICE_PROFILES)('the German invoice (19 %, 7 %, 0 %, an allowance, SEPA) passes every rule of %s', (profile) => {
    expect(checkInvoice(profile === 'xrechnung' ? germanXRechnung() : germanInvoice(), profile)).toEqual([]);
  });

  it('BR-CO-10: the sum of line net amounts must be the sum of the lines', () => {
    expect(rulesOf(changed((i) => (i.totals.lineTotal = 4159.8)))).toContain('BR-CO-10 totals.lineTotal');
  });

  it('changing one line without its totals is caught by the category and document sums', () => {
    const invoice = changed((i) => {
      i.lines[0].quantity = 3;
      i.lines[0].netAmount = 2550;
    });
    expect(rulesOf(invoice)).toEqual(['BR-S-08 vatBreakdown[0].basis', 'BR-CO-10 totals.lineTotal']);
  });

  it('BR-CO-13, BR-CO-14, BR-CO-15, BR-CO-16: each total is checked against the ones it is made of', () => {
    expect(rulesOf(changed((i) => (i.totals.taxBasisTotal = 4052.3)))).toEqual(expect.arrayContaining(['BR-CO-13 totals.taxBasisTotal', 'BR-CO-15 totals.grandTotal']));
    expect(rulesOf(changed((i) => (i.totals.taxTotal = 396.56)))).toEqual(expect.arrayContaining(['BR-CO-14 totals.taxTotal', 'BR-CO-15 totals.grandTotal']));
    expect(rulesOf(changed((i) => (i.totals.grandTotal = 4448.76)))).toEqual(['BR-CO-15 totals.grandTotal', 'BR-CO-16 totals.duePayable']);
    expect(rulesOf(changed((i) => (i.totals.duePayable = 4000)))).toEqual(['BR-CO-16 totals.duePayable']);
    expect(rulesOf(changed((i) => Object.assign(i.totals, { prepaid: 448.66, duePayable: 4000 })))).toEqual([]);
  });

  it('BR-CO-11 and BR-CO-17: allowances sum up, and each VAT amount is its rate of its basis, to the cent', () => {
    expect(rulesOf(changed((i) => delete i.totals.allowanceTotal))).toEqual(expect.arrayContaining(['BR-CO-11 totals.allowanceTotal']));
    expect(rulesOf(changed((i) => (i.vatBreakdown[0].tax = 388.07)))).toEqual(expect.arrayContaining(['BR-CO-17 vatBreakdown[0].tax', 'BR-CO-14 totals.taxTotal']));
  });

  it('BR-S-08: the taxable amount of each standard rate is its lines minus its allowances', () => {
    const invoice = changed((i) => {
      i.allowancesCharges![0].vat.rate = 7; // the allowance moved to the 7 % goods, the breakdown not
    });
    expect(rulesOf(invoice)).toEqual(['BR-S-08 vatBreakdown[0].basis', 'BR-S-08 vatBreakdown[1].basis']);
  });

  it('Factur-X BASIC and EN 16931 ask when the supply took place (BR-FX-EN-04); a down payment invoice does not', () => {
    expect(rulesOf(changed((i) => delete i.deliveryDate))).toEqual(['BR-FX-EN-04 deliveryDate']);
    expect(rulesOf(changed((i) => delete i.deliveryDate), 'basic')).toEqual(['BR-FX-EN-04 deliveryDate']);
    expect(rulesOf(changed((i) => Object.assign(i, { deliveryDate: undefined, period: { start: '2026-11-01', end: '2026-11-30' } })))).toEqual([]);
    expect(rulesOf(changed((i) => Object.assign(i, { deliveryDate: undefined, typeCode: '386' })))).toEqual([]);
    expect(rulesOf(changed((i) => delete i.deliveryDate), 'xrechnung')).not.toContain('BR-FX-EN-04 deliveryDate');
  });

  it('a rate used on a line needs its own VAT breakdown entry (DOCRENDER-VAT-RATE)', () => {
    expect(rulesOf(changed((i) => (i.lines[2].vat.rate = 16)))).toEqual(expect.arrayContaining(['DOCRENDER-VAT-RATE lines[2].vat.rate', 'BR-S-08 vatBreakdown[1].basis']));
  });

  it('category rules: Z carries no exemption reason (BR-Z-10), E needs one (BR-E-10), a category on a line needs its breakdown (BR-x-01)', () => {
    expect(rulesOf(changed((i) => (i.vatBreakdown[2].exemptionReason = 'steuerfrei')))).toEqual(['BR-Z-10 vatBreakdown[2].exemptionReason']);
    expect(rulesOf(changed((i) => delete i.vatBreakdown[2].exemptionReason, germanXRechnung), 'xrechnung')).toEqual(['BR-E-10 vatBreakdown[2].exemptionReason']);
    expect(rulesOf(changed((i) => i.vatBreakdown.pop()))).toEqual(expect.arrayContaining(['BR-Z-01 vatBreakdown']));
    expect(rulesOf(changed((i) => (i.lines[3].vat = { category: 'Z', rate: 7 })))).toEqual(expect.arrayContaining(['BR-Z-05 lines[3].vat.rate']));
  });

  it('reverse charge (AE) needs both VAT identifiers (BR-AE-02)', () => {
    const invoice = changed((i) => {
      i.lines[3].vat = { category: 'AE', rate: 0 };
      i.vatBreakdown[2] = { category: 'AE', rate: 0, basis: 1890, tax: 0, exemptionReason: 'Steuerschuldnerschaft des Leistungsempfängers' };
      delete i.buyer.vatId;
    });
    expect(rulesOf(invoice)).toEqual(['BR-AE-02 lines[3]']);
  });

  it('mandatory fields BR-02 … BR-16 name the rule and the data path', () => {
    const invoice = changed((i) => {
      Object.assign(i, { number: '', issueDate: undefined, typeCode: undefined, currency: undefined, lines: [] });
      Object.assign(i.seller, { name: undefined, address: undefined });
      Object.assign(i.buyer, { name: ' ', address: { city: 'München' } });
    });
    expect(rulesOf(invoice)).toEqual(expect.arrayContaining([
      'BR-02 number', 'BR-03 issueDate', 'BR-04 typeCode', 'BR-05 currency', 'BR-06 seller.name', 'BR-08 seller.address',
      'DOCRENDER-TYPE buyer.name', 'BR-11 buyer.address.country', 'BR-16 lines',
    ]));
    expect(rulesOf(changed((i) => (i.lines = [])), 'basicwl')).not.toContain('BR-16 lines');
  });

  it('lines: id, quantity, unit, name and price are required, the price is not negative, the net amount is quantity × price', () => {
    const invoice = changed((i) => {
      Object.assign(i.lines[0], { id: undefined, name: undefined, unit: 'pieces', quantity: undefined });
      Object.assign(i.lines[1], { netPrice: -75 });
      Object.assign(i.lines[2], { netAmount: 119.71 });
    });
    expect(rulesOf(invoice)).toEqual(expect.arrayContaining([
      'BR-21 lines[0].id', 'BR-25 lines[0].name', 'BR-22 lines[0].quantity', 'BR-CL-23 lines[0].unit', 'BR-27 lines[1].netPrice',
      'DOCRENDER-LINE-NET lines[1].netAmount', 'DOCRENDER-LINE-NET lines[2].netAmount',
    ]));
  });

  it('amounts have at most two decimals (BR-DEC-*), dates are calendar dates, text is a decimal only in canonical form', () => {
    expect(rulesOf(changed((i) => (i.lines[0].netAmount = '1700.001')))).toContain('BR-DEC-23 lines[0].netAmount');
    expect(rulesOf(changed((i) => (i.totals.grandTotal = '4.448,66')))).toContain('DOCRENDER-DECIMAL totals.grandTotal');
    expect(rulesOf(changed((i) => (i.issueDate = '2026-02-30')))).toContain('DOCRENDER-DATE issueDate');
    expect(rulesOf(changed((i) => (i.payment!.dueDate = '2026-11-01')))).toContain('DOCRENDER-DUE-DATE payment.dueDate');
    expect(rulesOf(changed((i) => (i.period = { start: '2026-11-30', end: '2026-11-01' })))).toContain('BR-29 period.end');
  });

  it('SEPA credit transfer needs a valid IBAN (BR-61); a due amount needs a due date or terms (BR-CO-25)', () => {
    expect(rulesOf(changed((i) => delete i.payment!.iban))).toEqual(['BR-61 payment.iban']);
    expect(rulesOf(changed((i) => (i.payment!.iban = 'DE02120300000000202052')))).toEqual(['DOCRENDER-IBAN payment.iban']);
    expect(rulesOf(changed((i) => Object.assign(i.payment!, { dueDate: undefined, terms: undefined })))).toEqual(['BR-CO-25 payment.dueDate']);
  });

  it('XRechnung: the Leitweg-ID (BR-DE-15), the seller contact (BR-DE-2 … 7), payment instructions (BR-DE-1)', () => {
    expect(rulesOf(changed((i) => delete i.buyerReference, germanXRechnung), 'xrechnung')).toEqual(['BR-DE-15 buyerReference']);
    expect(rulesOf(changed((i) => delete i.seller.contact!.phone, germanXRechnung), 'xrechnung')).toEqual(['BR-DE-6 seller.contact.phone']);
    expect(rulesOf(changed((i) => delete i.payment, germanXRechnung), 'xrechnung')).toEqual(expect.arrayContaining(['BR-DE-1 payment']));
    expect(rulesOf(changed((i) => (i.typeCode = '71'), germanXRechnung), 'xrechnung')).toEqual(['BR-DE-17 typeCode']);
    expect(rulesOf(changed((i) => delete i.buyerReference), 'en16931')).toEqual([]);
  });

  it('a value of the wrong kind, or a control character XML cannot carry, is a DOCRENDER rule naming its path', () => {
    expect(rulesOf('not an invoice')).toEqual(['DOCRENDER-TYPE ']);
    expect(rulesOf(changed((i) => (i.lines[0].name = 'Wechsel\u0007richter')))).toEqual(['DOCRENDER-XML-CHAR lines[0].name']);
    expect(rulesOf(changed((i) => ((i as unknown as Record<string, unknown>).lines = { a: 1 })))).toContain('DOCRENDER-TYPE lines');
  });
});
