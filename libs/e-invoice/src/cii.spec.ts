import { buildCiiXml } from './cii';
import { createEInvoice } from './e-invoice';
import { germanInvoice, germanXRechnung } from './test/german-invoice';

const count = (xml: string, element: string) => xml.split(`<${element}>`).length - 1 + (xml.split(`<${element} `).length - 1);

describe('issue 34 item 3: the CII XML of each profile', () => {
  it('EN 16931 writes every line, the VAT breakdown per category and rate, the allowance, SEPA payment and the totals', () => {
    const xml = buildCiiXml(germanInvoice(), 'en16931');
    expect(xml).toContain('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>');
    expect(count(xml, 'ram:IncludedSupplyChainTradeLineItem')).toBe(4);
    expect(count(xml, 'ram:SpecifiedTradeAllowanceCharge')).toBe(1);
    expect(xml).toContain('<udt:DateTimeString format="102">20261129</udt:DateTimeString>');
    expect(xml).toMatch(/<ram:CalculatedAmount>388\.08<\/ram:CalculatedAmount>\s*<ram:TypeCode>VAT<\/ram:TypeCode>\s*<ram:BasisAmount>2042\.50<\/ram:BasisAmount>\s*<ram:CategoryCode>S<\/ram:CategoryCode>\s*<ram:RateApplicablePercent>19<\/ram:RateApplicablePercent>/);
    for (const element of [
      '<ram:IBANID>DE02120300000000202051</ram:IBANID>',
      '<ram:BICID>BYLADEM1001</ram:BICID>',
      '<ram:TaxTotalAmount currencyID="EUR">396.46</ram:TaxTotalAmount>',
      '<ram:GrandTotalAmount>4448.66</ram:GrandTotalAmount>',
      '<ram:PersonName>Erika Muster</ram:PersonName>',
      '<ram:ID schemeID="VA">DE123456789</ram:ID>',
      '<ram:ID schemeID="FC">27/123/45678</ram:ID>',
    ])
      expect(xml).toContain(element);
  });

  it('MINIMUM carries the header and totals only; BASIC WL adds the breakdown but no lines; BASIC adds lines but no contacts or BIC', () => {
    const minimum = buildCiiXml(germanInvoice(), 'minimum');
    expect(minimum).toContain('<ram:ID>urn:factur-x.eu:1p0:minimum</ram:ID>');
    for (const absent of ['ram:IncludedSupplyChainTradeLineItem', 'ram:ApplicableTradeTax', 'ram:LineTotalAmount', 'ram:IncludedNote', 'ram:PostcodeCode']) expect(count(minimum, absent)).toBe(0);
    const basicwl = buildCiiXml(germanInvoice(), 'basicwl');
    expect(count(basicwl, 'ram:IncludedSupplyChainTradeLineItem')).toBe(0);
    expect(count(basicwl, 'ram:ApplicableTradeTax')).toBe(3);
    expect(count(basicwl, 'ram:LineTotalAmount')).toBe(1);
    const basic = buildCiiXml(germanInvoice(), 'basic');
    expect(count(basic, 'ram:IncludedSupplyChainTradeLineItem')).toBe(4);
    for (const absent of ['ram:DefinedTradeContact', 'ram:BICID', 'ram:SellerAssignedID', 'ram:Information']) expect(count(basic, absent)).toBe(0);
    expect(basic).not.toContain('Montage der Anlage vor Ort'); // the item description (BT-154) is EN 16931 and above
  });

  it('XRechnung names its guideline and the PEPPOL business process, and carries the Leitweg-ID', () => {
    const xml = buildCiiXml(germanXRechnung(), 'xrechnung');
    expect(xml).toContain('<ram:ID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</ram:ID>');
    expect(xml).toContain('<ram:ID>urn:fdc:peppol.eu:2017:poacc:billing:01.0</ram:ID>');
    expect(xml).toContain('<ram:BuyerReference>04011000-12345-34</ram:BuyerReference>');
    expect(xml).toContain('<ram:ExemptionReason>Steuerfrei nach § 4 Nr. 21 UStG</ram:ExemptionReason>');
  });

  it('text is escaped by the XML library, never spliced', () => {
    const invoice = germanInvoice();
    invoice.buyer.name = 'Müller & Söhne <GmbH> "Nord"';
    const xml = buildCiiXml(invoice, 'en16931');
    expect(xml).toContain('<ram:Name>Müller &amp; Söhne &lt;GmbH&gt; &quot;Nord&quot;</ram:Name>');
  });

  it('createEInvoice returns the XML and its file name only when every rule holds', () => {
    const ok = createEInvoice(germanXRechnung(), 'xrechnung');
    expect(ok.ok && ok.fileName).toBe('xrechnung.xml');
    const facturX = createEInvoice(germanInvoice(), 'en16931');
    expect(facturX.ok && facturX.fileName).toBe('factur-x.xml');
    const broken = germanInvoice();
    broken.totals.grandTotal = 4448.76;
    const refused = createEInvoice(broken, 'en16931');
    expect(refused).toEqual({ ok: false, profile: 'en16931', violations: [expect.objectContaining({ rule: 'BR-CO-15', path: 'totals.grandTotal' }), expect.objectContaining({ rule: 'BR-CO-16', path: 'totals.duePayable' })] });
  });
});
