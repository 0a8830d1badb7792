import XMLBuilder from 'fast-xml-builder';
import { Decimal, formatDecimal, parseDecimal } from './decimal';
import { DecimalInput, EInvoice, EInvoiceAddress, EInvoiceAllowanceCharge, EInvoiceLine, EInvoiceParty, SchemedId, VatOf } from './model';
import { EInvoiceProfile, PROFILES } from './profiles';

/**
 * Builds the UN/CEFACT Cross Industry Invoice (CII, the syntax of Factur-X / ZUGFeRD and of XRechnung-CII) for a
 * profile. The element order is the order of the profile's XSD (Factur-X 1.09); elements a profile does not carry are
 * not written (MINIMUM and BASIC WL carry no lines, only EN 16931 and above carry contacts, BIC, item details and
 * rounding). The XML syntax — escaping, attributes, indentation — is fast-xml-builder's (decision 0033).
 *
 * Call it on an invoice that `checkInvoice` accepted: it throws on a value that is not a decimal or a date rather
 * than write a wrong one.
 */
export function buildCiiXml(invoice: EInvoice, profile: EInvoiceProfile): string {
  const info = PROFILES[profile];
  const level = info.level;
  const ccy = invoice.currency;

  const context = compact({
    'ram:BusinessProcessSpecifiedDocumentContextParameter': info.businessProcessId ? { 'ram:ID': info.businessProcessId } : undefined,
    'ram:GuidelineSpecifiedDocumentContextParameter': { 'ram:ID': info.guidelineId },
  });
  const document = compact({
    'ram:ID': invoice.number,
    'ram:TypeCode': invoice.typeCode,
    'ram:IssueDateTime': dateTime(invoice.issueDate),
    'ram:IncludedNote': level >= 1 && invoice.notes?.length ? invoice.notes.map((n) => compact({ 'ram:Content': n.text, 'ram:SubjectCode': n.subjectCode })) : undefined,
  });

  const agreement = compact({
    'ram:BuyerReference': invoice.buyerReference,
    'ram:SellerTradeParty': party(invoice.seller, 'seller', level),
    'ram:BuyerTradeParty': party(invoice.buyer, 'buyer', level),
    'ram:BuyerOrderReferencedDocument': invoice.orderReference ? { 'ram:IssuerAssignedID': invoice.orderReference } : undefined,
    'ram:ContractReferencedDocument': level >= 1 && invoice.contractReference ? { 'ram:IssuerAssignedID': invoice.contractReference } : undefined,
  });
  const delivery = compact({
    'ram:ActualDeliverySupplyChainEvent': level >= 1 && invoice.deliveryDate ? { 'ram:OccurrenceDateTime': dateTime(invoice.deliveryDate) } : undefined,
  });
  const settlement = compact({
    'ram:CreditorReferenceID': level >= 1 ? invoice.payment?.creditorId : undefined,
    'ram:PaymentReference': level >= 1 ? invoice.payment?.reference : undefined,
    'ram:InvoiceCurrencyCode': ccy,
    'ram:SpecifiedTradeSettlementPaymentMeans': level >= 1 && invoice.payment ? paymentMeans(invoice, level) : undefined,
    'ram:ApplicableTradeTax': level >= 1 ? invoice.vatBreakdown.map((row) => compact({
      'ram:CalculatedAmount': amount(row.tax),
      'ram:TypeCode': 'VAT',
      'ram:ExemptionReason': row.exemptionReason,
      'ram:BasisAmount': amount(row.basis),
      'ram:CategoryCode': row.category,
      'ram:ExemptionReasonCode': row.exemptionReasonCode,
      'ram:RateApplicablePercent': optDecimal(row.rate, 0),
    })) : undefined,
    'ram:BillingSpecifiedPeriod': level >= 1 && invoice.period ? period(invoice.period) : undefined,
    'ram:SpecifiedTradeAllowanceCharge': level >= 1 && invoice.allowancesCharges?.length ? invoice.allowancesCharges.map((ac) => allowanceCharge(ac, true)) : undefined,
    'ram:SpecifiedTradePaymentTerms': level >= 1 ? paymentTerms(invoice) : undefined,
    'ram:SpecifiedTradeSettlementHeaderMonetarySummation': summation(invoice, level),
  });

  const transaction = compact({
    'ram:IncludedSupplyChainTradeLineItem': level >= 2 ? invoice.lines.map((line) => lineItem(line, level)) : undefined,
    'ram:ApplicableHeaderTradeAgreement': agreement,
    'ram:ApplicableHeaderTradeDelivery': delivery,
    'ram:ApplicableHeaderTradeSettlement': settlement,
  });

  const root = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    'rsm:CrossIndustryInvoice': {
      '@_xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
      '@_xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
      '@_xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
      '@_xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
      'rsm:ExchangedDocumentContext': context,
      'rsm:ExchangedDocument': document,
      'rsm:SupplyChainTradeTransaction': transaction,
    },
  };
  // Built per call: a builder is cheap, and its options are the whole contract of the syntax.
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    format: true,
    indentBy: '  ',
    suppressEmptyNode: true,
    suppressBooleanAttributes: false,
    processEntities: true,
  });
  return builder.build(root);

  function summation(inv: EInvoice, lvl: number): Node {
    const t = inv.totals;
    if (lvl === 0) {
      return compact({
        'ram:TaxBasisTotalAmount': amount(t.taxBasisTotal),
        'ram:TaxTotalAmount': t.taxTotal !== undefined ? { '@_currencyID': ccy, '#text': amount(t.taxTotal) } : undefined,
        'ram:GrandTotalAmount': amount(t.grandTotal),
        'ram:DuePayableAmount': amount(t.duePayable),
      });
    }
    return compact({
      'ram:LineTotalAmount': amount(t.lineTotal as DecimalInput),
      'ram:ChargeTotalAmount': optAmount(t.chargeTotal),
      'ram:AllowanceTotalAmount': optAmount(t.allowanceTotal),
      'ram:TaxBasisTotalAmount': amount(t.taxBasisTotal),
      'ram:TaxTotalAmount': t.taxTotal !== undefined ? { '@_currencyID': ccy, '#text': amount(t.taxTotal) } : undefined,
      'ram:RoundingAmount': lvl >= 3 ? optAmount(t.rounding) : undefined,
      'ram:GrandTotalAmount': amount(t.grandTotal),
      'ram:TotalPrepaidAmount': optAmount(t.prepaid),
      'ram:DuePayableAmount': amount(t.duePayable),
    });
  }
}

type Node = Record<string, unknown>;

function party(p: EInvoiceParty, role: 'seller' | 'buyer', level: number): Node {
  if (level === 0) {
    return compact({
      'ram:Name': p.name,
      'ram:SpecifiedLegalOrganization': p.legalRegistration ? { 'ram:ID': schemed(p.legalRegistration) } : undefined,
      'ram:PostalTradeAddress': role === 'seller' && p.address ? { 'ram:CountryID': p.address.country } : undefined,
      'ram:SpecifiedTaxRegistration': role === 'seller' ? taxRegistrations(p) : undefined,
    });
  }
  const globalId = p.id?.scheme ? p.id : undefined;
  const localId = p.id && !p.id.scheme ? p.id.id : undefined;
  return compact({
    'ram:ID': localId,
    'ram:GlobalID': globalId ? schemed(globalId) : undefined,
    'ram:Name': p.name,
    'ram:Description': level >= 3 ? p.legalInfo : undefined,
    'ram:SpecifiedLegalOrganization': p.legalRegistration || p.tradingName
      ? compact({
          'ram:ID': p.legalRegistration ? schemed(p.legalRegistration) : undefined,
          'ram:TradingBusinessName': p.tradingName,
        })
      : undefined,
    'ram:DefinedTradeContact': level >= 3 && p.contact
      ? compact({
          'ram:PersonName': p.contact.name,
          'ram:TelephoneUniversalCommunication': p.contact.phone ? { 'ram:CompleteNumber': p.contact.phone } : undefined,
          'ram:EmailURIUniversalCommunication': p.contact.email ? { 'ram:URIID': p.contact.email } : undefined,
        })
      : undefined,
    'ram:PostalTradeAddress': p.address ? address(p.address) : undefined,
    'ram:URIUniversalCommunication': p.electronicAddress ? { 'ram:URIID': schemed(p.electronicAddress) } : undefined,
    'ram:SpecifiedTaxRegistration': taxRegistrations(p),
  });
}

function taxRegistrations(p: EInvoiceParty): Node[] | undefined {
  const list = [
    p.vatId ? { 'ram:ID': { '@_schemeID': 'VA', '#text': p.vatId } } : undefined,
    p.taxNumber ? { 'ram:ID': { '@_schemeID': 'FC', '#text': p.taxNumber } } : undefined,
  ].filter((x): x is { 'ram:ID': { '@_schemeID': string; '#text': string } } => x !== undefined);
  return list.length ? list : undefined;
}

function address(a: EInvoiceAddress): Node {
  return compact({
    'ram:PostcodeCode': a.postcode,
    'ram:LineOne': a.line1,
    'ram:LineTwo': a.line2,
    'ram:LineThree': a.line3,
    'ram:CityName': a.city,
    'ram:CountryID': a.country,
    'ram:CountrySubDivisionName': a.countrySubdivision,
  });
}

function lineItem(line: EInvoiceLine, level: number): Node {
  return {
    'ram:AssociatedDocumentLineDocument': compact({
      'ram:LineID': line.id,
      'ram:IncludedNote': line.note ? { 'ram:Content': line.note } : undefined,
    }),
    'ram:SpecifiedTradeProduct': compact({
      'ram:GlobalID': line.globalId ? schemed(line.globalId) : undefined,
      'ram:SellerAssignedID': level >= 3 ? line.sellerItemId : undefined,
      'ram:Name': line.name,
      'ram:Description': level >= 3 ? line.description : undefined,
    }),
    'ram:SpecifiedLineTradeAgreement': {
      'ram:NetPriceProductTradePrice': compact({
        'ram:ChargeAmount': decimal(line.netPrice, 2),
        'ram:BasisQuantity': line.basisQuantity !== undefined ? { '@_unitCode': line.unit, '#text': decimal(line.basisQuantity, 0) } : undefined,
      }),
    },
    'ram:SpecifiedLineTradeDelivery': {
      'ram:BilledQuantity': { '@_unitCode': line.unit, '#text': decimal(line.quantity, 0) },
    },
    'ram:SpecifiedLineTradeSettlement': compact({
      'ram:ApplicableTradeTax': tradeTax(line.vat),
      'ram:BillingSpecifiedPeriod': line.period ? period(line.period) : undefined,
      'ram:SpecifiedTradeSettlementLineMonetarySummation': { 'ram:LineTotalAmount': amount(line.netAmount) },
    }),
  };
}

function tradeTax(vat: VatOf): Node {
  return compact({
    'ram:TypeCode': 'VAT',
    'ram:CategoryCode': vat.category,
    'ram:RateApplicablePercent': optDecimal(vat.rate, 0),
  });
}

function allowanceCharge(ac: EInvoiceAllowanceCharge, withTax: boolean): Node {
  return compact({
    'ram:ChargeIndicator': { 'udt:Indicator': ac.charge ? 'true' : 'false' },
    'ram:CalculationPercent': optDecimal(ac.percent, 0),
    'ram:BasisAmount': optAmount(ac.basis),
    'ram:ActualAmount': amount(ac.amount),
    'ram:ReasonCode': ac.reasonCode,
    'ram:Reason': ac.reason,
    'ram:CategoryTradeTax': withTax ? tradeTax(ac.vat) : undefined,
  });
}

function paymentMeans(invoice: EInvoice, level: number): Node {
  const p = invoice.payment as NonNullable<EInvoice['payment']>;
  return compact({
    'ram:TypeCode': p.meansCode,
    'ram:Information': level >= 3 ? p.meansText : undefined,
    'ram:PayerPartyDebtorFinancialAccount': p.debitedIban ? { 'ram:IBANID': p.debitedIban } : undefined,
    'ram:PayeePartyCreditorFinancialAccount': p.iban
      ? compact({ 'ram:IBANID': p.iban.replace(/ /g, ''), 'ram:AccountName': level >= 3 ? p.accountName : undefined })
      : undefined,
    'ram:PayeeSpecifiedCreditorFinancialInstitution': level >= 3 && p.bic ? { 'ram:BICID': p.bic } : undefined,
  });
}

function paymentTerms(invoice: EInvoice): Node | undefined {
  const p = invoice.payment;
  if (!p || (!p.terms && !p.dueDate && !p.mandateId)) return undefined;
  return compact({
    'ram:Description': p.terms,
    'ram:DueDateDateTime': p.dueDate ? dateTime(p.dueDate) : undefined,
    'ram:DirectDebitMandateID': p.mandateId,
  });
}

function period(p: { start?: string; end?: string }): Node {
  return compact({
    'ram:StartDateTime': p.start ? dateTime(p.start) : undefined,
    'ram:EndDateTime': p.end ? dateTime(p.end) : undefined,
  });
}

function schemed(id: SchemedId): Node | string {
  return id.scheme ? { '@_schemeID': id.scheme, '#text': id.id } : id.id;
}

/** A date in the CII form: `<udt:DateTimeString format="102">YYYYMMDD</udt:DateTimeString>`. */
function dateTime(iso: string): Node {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) throw new Error(`"${iso}" is not a calendar date (YYYY-MM-DD)`);
  return { 'udt:DateTimeString': { '@_format': '102', '#text': iso.replace(/-/g, '') } };
}

function toDecimal(value: DecimalInput): Decimal {
  const d = parseDecimal(value);
  if (d === undefined) throw new Error(`${JSON.stringify(value)} is not a decimal number`);
  return d;
}

function decimal(value: DecimalInput, minPlaces: number): string {
  return formatDecimal(toDecimal(value), minPlaces);
}

function amount(value: DecimalInput): string {
  return decimal(value, 2);
}

function optAmount(value: DecimalInput | undefined): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : amount(value);
}

function optDecimal(value: DecimalInput | undefined, minPlaces: number): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : decimal(value, minPlaces);
}

/** The node without its absent children (a child in the output is a value the invoice has). */
function compact(node: Record<string, unknown>): Node {
  return Object.fromEntries(Object.entries(node).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)));
}
