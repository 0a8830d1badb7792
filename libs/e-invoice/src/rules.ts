import { Decimal, decimalPlaces, parseDecimal, percentOf, productToCent, sum, formatDecimal, ONE } from './decimal';
import { EInvoice, EInvoiceViolation, VAT_CATEGORIES, VatCategory } from './model';
import { EInvoiceProfile, PROFILES } from './profiles';

/**
 * The product's own checks of an e-invoice, without Java: the data types, the fields the profile requires, and the
 * EN 16931 business rules that need no code list (mandatory fields BR-01…BR-65, the arithmetic BR-CO-*, the VAT
 * category rules BR-S/Z/E/AE/IC/G/O/IG/IP-*, the decimals BR-DEC-*), plus XRechnung's national rules that are
 * checks of presence (BR-DE-*). Every failure names its rule id and the path of the value in the model. Code lists
 * are checked for their form only (three letters for a currency, two for a country); their full content is the outside
 * validator's (see docs/decisions/0033-e-invoices-cii.md).
 */
export function checkInvoice(input: unknown, profile: EInvoiceProfile): EInvoiceViolation[] {
  return new InvoiceChecker(profile).run(input);
}

/** BR-CL-01, the document types of UNTDID 1001 that EN 16931 accepts for an invoice or credit note. */
const TYPE_CODES = new Set([
  '71', '80', '81', '82', '83', '84', '102', '130', '202', '203', '204', '211', '218', '219', '261', '262', '295', '296', '308', '325', '326',
  '331', '380', '381', '382', '383', '384', '385', '386', '387', '388', '389', '390', '393', '394', '395', '396', '420', '456', '457', '458',
  '527', '532', '553', '575', '623', '633', '751', '780', '817', '870', '875', '876', '877', '935',
]);
/** BR-DE-17: the type codes XRechnung accepts. */
const XRECHNUNG_TYPE_CODES = new Set(['326', '380', '384', '389', '381', '875', '876', '877']);
/** Payment means that are credit transfers (BR-61: the account must be given). */
const CREDIT_TRANSFER = new Set(['30', '58']);
/** Categories whose rate is zero and whose VAT amount is zero. */
const ZERO_RATED: ReadonlySet<VatCategory> = new Set(['Z', 'E', 'AE', 'K', 'G']);
/** Categories that need an exemption reason (BR-x-10) and the ones that must not have one. */
const NEEDS_EXEMPTION: ReadonlySet<VatCategory> = new Set(['E', 'AE', 'K', 'G', 'O']);
const NO_EXEMPTION: ReadonlySet<VatCategory> = new Set(['S', 'Z', 'L', 'M']);
/** The prefix of the category's rules in EN 16931 (intra-community supply is BR-IC-*, IGIC BR-IG-*, IPSI BR-IP-*). */
const RULE_PREFIX: Record<VatCategory, string> = { S: 'BR-S', Z: 'BR-Z', E: 'BR-E', AE: 'BR-AE', K: 'BR-IC', G: 'BR-G', O: 'BR-O', L: 'BR-IG', M: 'BR-IP' };

const XML_CHARACTERS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

type Dict = Record<string, unknown>;

interface VatItem {
  path: string;
  source: 'line' | 'allowance' | 'charge';
  category: VatCategory;
  rate: Decimal | undefined;
  amount: Decimal | undefined;
}

class InvoiceChecker {
  private readonly violations: EInvoiceViolation[] = [];
  private readonly level: number;

  constructor(private readonly profile: EInvoiceProfile) {
    this.level = PROFILES[profile].level;
  }

  run(input: unknown): EInvoiceViolation[] {
    if (!isDict(input)) {
      this.fail('DOCRENDER-TYPE', '', 'The e-invoice is not an object.');
      return this.violations;
    }
    const inv = input as Partial<Record<keyof EInvoice, unknown>>;
    this.text(inv.number, 'number', 'BR-02', 'The invoice number (BT-1)');
    const issueDate = this.date(inv.issueDate, 'issueDate', 'BR-03', 'The issue date (BT-2)');
    const typeCode = this.text(inv.typeCode, 'typeCode', 'BR-04', 'The invoice type code (BT-3)');
    if (typeCode !== undefined && !TYPE_CODES.has(typeCode)) this.fail('BR-CL-01', 'typeCode', `"${typeCode}" is not an invoice type code of UNTDID 1001 that EN 16931 accepts.`);
    if (typeCode !== undefined && this.profile === 'xrechnung' && !XRECHNUNG_TYPE_CODES.has(typeCode)) {
      this.fail('BR-DE-17', 'typeCode', `XRechnung accepts the invoice type codes 326, 380, 384, 389, 381, 875, 876, 877, not "${typeCode}".`);
    }
    const currency = this.text(inv.currency, 'currency', 'BR-05', 'The invoice currency (BT-5)');
    if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) this.fail('BR-CL-04', 'currency', `"${currency}" is not an ISO 4217 currency code (three capital letters).`);
    const buyerReference = this.optText(inv.buyerReference, 'buyerReference');
    if (this.profile === 'xrechnung' && buyerReference === undefined) this.fail('BR-DE-15', 'buyerReference', 'XRechnung requires the buyer reference (BT-10), the Leitweg-ID for public buyers.');
    this.optText(inv.orderReference, 'orderReference');
    this.optText(inv.contractReference, 'contractReference');
    this.list(inv.notes, 'notes').forEach((note, i) => {
      if (!isDict(note)) return this.fail('DOCRENDER-TYPE', `notes[${i}]`, 'A note is an object with a "text".');
      this.text(note.text, `notes[${i}].text`, 'DOCRENDER-NOTE', 'The note text (BT-22)');
      this.optText(note.subjectCode, `notes[${i}].subjectCode`);
    });
    const deliveryDate = this.optDate(inv.deliveryDate, 'deliveryDate');
    const period = this.period(inv.period, 'period', 'BR-29');
    // Factur-X BASIC and EN 16931: an invoice other than a down payment (386) says when the supply took place.
    if ((this.profile === 'basic' || this.profile === 'en16931') && typeCode !== '386' && deliveryDate === undefined && period === undefined) {
      const lines = Array.isArray(inv.lines) ? inv.lines : [];
      if (lines.length === 0 || !lines.every((line) => isDict(line) && isDict(line.period))) {
        this.fail('BR-FX-EN-04', 'deliveryDate', 'Factur-X asks for the actual delivery date (BT-72), the invoicing period (BG-14) or a period on every line (BG-26).');
      }
    }

    const seller = this.party(inv.seller, 'seller', 'seller');
    const buyer = this.party(inv.buyer, 'buyer', 'buyer');
    const items: VatItem[] = [];
    const lineNets = this.lines(inv.lines, items);
    const { allowances, charges } = this.allowancesCharges(inv.allowancesCharges, items);
    const breakdown = this.vatBreakdown(inv.vatBreakdown);
    this.vatCategories(items, breakdown, seller, buyer);
    const totals = this.totals(inv.totals, lineNets, allowances, charges, breakdown);
    this.payment(inv.payment, totals.duePayable, issueDate);
    return this.violations;
  }

  // --- parties --------------------------------------------------------------------------------------------------

  private party(value: unknown, path: string, role: 'seller' | 'buyer'): { vatId?: string; taxNumber?: string; legalId?: string } {
    const [nameRule, addressRule, countryRule] = role === 'seller' ? ['BR-06', 'BR-08', 'BR-09'] : ['BR-07', 'BR-10', 'BR-11'];
    const label = role === 'seller' ? 'seller' : 'buyer';
    if (!isDict(value)) {
      this.fail(nameRule, `${path}.name`, `The ${label} (BG-${role === 'seller' ? 4 : 7}) is missing.`);
      return {};
    }
    this.text(value.name, `${path}.name`, nameRule, `The ${label} name (BT-${role === 'seller' ? 27 : 44})`);
    this.optText(value.tradingName, `${path}.tradingName`);
    const id = this.schemedId(value.id, `${path}.id`);
    const legal = this.schemedId(value.legalRegistration, `${path}.legalRegistration`);
    const vatId = this.optText(value.vatId, `${path}.vatId`);
    if (vatId !== undefined && !/^[A-Z]{2}/.test(vatId)) this.fail('BR-CO-09', `${path}.vatId`, `The VAT identifier "${vatId}" does not start with the ISO 3166 code of its country.`);
    const taxNumber = this.optText(value.taxNumber, `${path}.taxNumber`);
    this.optText(value.legalInfo, `${path}.legalInfo`);
    this.schemedId(value.electronicAddress, `${path}.electronicAddress`);
    if (role === 'seller' && this.level >= 1 && id === undefined && legal === undefined && vatId === undefined) {
      this.fail('BR-CO-26', path, 'The seller needs an identifier (BT-29), a legal registration identifier (BT-30) or a VAT identifier (BT-31).');
    }
    // MINIMUM carries the seller's country only, and no buyer address.
    const needsAddress = role === 'seller' || this.level >= 1;
    const address = value.address;
    if (address === undefined || address === null) {
      if (needsAddress) this.fail(addressRule, `${path}.address`, `The ${label} postal address (BG-${role === 'seller' ? 5 : 8}) is missing.`);
    } else if (!isDict(address)) {
      this.fail('DOCRENDER-TYPE', `${path}.address`, 'An address is an object.');
    } else {
      for (const key of ['line1', 'line2', 'line3', 'countrySubdivision'] as const) this.optText(address[key], `${path}.address.${key}`);
      const city = this.optText(address.city, `${path}.address.city`);
      const postcode = this.optText(address.postcode, `${path}.address.postcode`);
      const country = this.text(address.country, `${path}.address.country`, countryRule, `The ${label} country code (BT-${role === 'seller' ? 40 : 55})`);
      if (country !== undefined && !/^[A-Z]{2}$/.test(country)) this.fail('BR-CL-14', `${path}.address.country`, `"${country}" is not an ISO 3166-1 alpha-2 country code.`);
      if (this.profile === 'xrechnung') {
        if (city === undefined) this.fail(role === 'seller' ? 'BR-DE-3' : 'BR-DE-8', `${path}.address.city`, `XRechnung requires the ${label} city.`);
        if (postcode === undefined) this.fail(role === 'seller' ? 'BR-DE-4' : 'BR-DE-9', `${path}.address.postcode`, `XRechnung requires the ${label} post code.`);
      }
    }
    const contact = value.contact;
    if (contact !== undefined && contact !== null && !isDict(contact)) this.fail('DOCRENDER-TYPE', `${path}.contact`, 'A contact is an object.');
    const c = isDict(contact) ? contact : {};
    const contactName = this.optText(c.name, `${path}.contact.name`);
    const phone = this.optText(c.phone, `${path}.contact.phone`);
    const email = this.optText(c.email, `${path}.contact.email`);
    if (role === 'seller' && this.profile === 'xrechnung') {
      if (!isDict(contact)) this.fail('BR-DE-2', `${path}.contact`, 'XRechnung requires the seller contact (BG-6).');
      else {
        if (contactName === undefined) this.fail('BR-DE-5', `${path}.contact.name`, 'XRechnung requires the seller contact point (BT-41).');
        if (phone === undefined) this.fail('BR-DE-6', `${path}.contact.phone`, 'XRechnung requires the seller contact telephone number (BT-42).');
        if (email === undefined) this.fail('BR-DE-7', `${path}.contact.email`, 'XRechnung requires the seller contact e-mail address (BT-43).');
      }
    }
    return { vatId, taxNumber, legalId: legal };
  }

  private schemedId(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isDict(value)) {
      this.fail('DOCRENDER-TYPE', path, 'An identifier is an object with "id" and, where the standard asks for it, "scheme".');
      return undefined;
    }
    this.optText(value.scheme, `${path}.scheme`);
    return this.text(value.id, `${path}.id`, 'DOCRENDER-TYPE', 'The identifier');
  }

  // --- lines, allowances and charges ----------------------------------------------------------------------------

  private lines(value: unknown, items: VatItem[]): Decimal[] {
    const lines = this.list(value, 'lines');
    if (lines.length === 0 && this.level >= 2) this.fail('BR-16', 'lines', 'The invoice has no line (BG-25); this profile requires at least one.');
    const nets: Decimal[] = [];
    const ids = new Set<string>();
    lines.forEach((line, i) => {
      const p = `lines[${i}]`;
      if (!isDict(line)) return this.fail('DOCRENDER-TYPE', p, 'An invoice line is an object.');
      const id = this.text(line.id, `${p}.id`, 'BR-21', 'The line identifier (BT-126)');
      if (id !== undefined && ids.has(id)) this.fail('DOCRENDER-LINE-ID', `${p}.id`, `The line identifier "${id}" is used by an earlier line; each line needs its own.`);
      if (id !== undefined) ids.add(id);
      this.optText(line.note, `${p}.note`);
      this.text(line.name, `${p}.name`, 'BR-25', 'The item name (BT-153)');
      this.optText(line.description, `${p}.description`);
      this.optText(line.sellerItemId, `${p}.sellerItemId`);
      this.schemedId(line.globalId, `${p}.globalId`);
      const quantity = this.decimal(line.quantity, `${p}.quantity`, 'BR-22', 'The invoiced quantity (BT-129)');
      const unit = this.text(line.unit, `${p}.unit`, 'BR-23', 'The unit of measure (BT-130)');
      if (unit !== undefined && !/^[A-Z0-9]{1,3}$/.test(unit)) this.fail('BR-CL-23', `${p}.unit`, `"${unit}" is not a UN/ECE Recommendation 20 unit code (such as C62, H87, HUR, KGM).`);
      const price = this.decimal(line.netPrice, `${p}.netPrice`, 'BR-26', 'The item net price (BT-146)');
      if (price !== undefined && price < 0n) this.fail('BR-27', `${p}.netPrice`, 'The item net price (BT-146) must not be negative.');
      const basisQuantity = this.optDecimal(line.basisQuantity, `${p}.basisQuantity`);
      if (basisQuantity !== undefined && basisQuantity <= 0n) this.fail('DOCRENDER-BASE-QUANTITY', `${p}.basisQuantity`, 'The price base quantity (BT-149) must be positive.');
      const net = this.decimal(line.netAmount, `${p}.netAmount`, 'BR-24', 'The line net amount (BT-131)', 'BR-DEC-23');
      if (net !== undefined) nets.push(net);
      if (net !== undefined && quantity !== undefined && price !== undefined && (basisQuantity === undefined || basisQuantity > 0n)) {
        const expected = productToCent(quantity, price, basisQuantity ?? ONE);
        if (expected !== net) {
          this.fail('DOCRENDER-LINE-NET', `${p}.netAmount`, `The line net amount ${formatDecimal(net)} is not quantity × net price${basisQuantity !== undefined ? ' ÷ base quantity' : ''} = ${formatDecimal(expected)} (line allowances and charges are not part of the model).`);
        }
      }
      this.period(line.period, `${p}.period`, 'BR-30');
      const vat = this.vatOf(line.vat, `${p}.vat`, 'BR-CO-4');
      if (vat) items.push({ path: p, source: 'line', ...vat, amount: net });
    });
    return nets;
  }

  private allowancesCharges(value: unknown, items: VatItem[]): { allowances: Decimal[]; charges: Decimal[] } {
    const allowances: Decimal[] = [];
    const charges: Decimal[] = [];
    this.list(value, 'allowancesCharges').forEach((entry, i) => {
      const p = `allowancesCharges[${i}]`;
      if (!isDict(entry)) return this.fail('DOCRENDER-TYPE', p, 'A document allowance or charge is an object.');
      if (typeof entry.charge !== 'boolean') return this.fail('DOCRENDER-TYPE', `${p}.charge`, '"charge" is true for a charge, false for an allowance.');
      const charge = entry.charge;
      const [amountRule, decRule, basisDec, vatRule, reasonRule] = charge ? ['BR-36', 'BR-DEC-05', 'BR-DEC-06', 'BR-37', 'BR-38'] : ['BR-31', 'BR-DEC-01', 'BR-DEC-02', 'BR-32', 'BR-33'];
      const amount = this.decimal(entry.amount, `${p}.amount`, amountRule, charge ? 'The charge amount (BT-99)' : 'The allowance amount (BT-92)', decRule);
      const basis = this.optDecimal(entry.basis, `${p}.basis`, basisDec);
      const percent = this.optDecimal(entry.percent, `${p}.percent`);
      if (amount !== undefined && basis !== undefined && percent !== undefined && percentOf(basis, percent) !== amount) {
        this.fail('DOCRENDER-PERCENT', `${p}.amount`, `The amount ${formatDecimal(amount)} is not ${formatDecimal(percent, 0)} % of ${formatDecimal(basis)} (${formatDecimal(percentOf(basis, percent))}).`);
      }
      const reason = this.optText(entry.reason, `${p}.reason`);
      const reasonCode = this.optText(entry.reasonCode, `${p}.reasonCode`);
      if (reason === undefined && reasonCode === undefined) this.fail(reasonRule, `${p}.reason`, `A document ${charge ? 'charge' : 'allowance'} needs a reason (BT-${charge ? 104 : 97}) or a reason code (BT-${charge ? 105 : 98}).`);
      const vat = this.vatOf(entry.vat, `${p}.vat`, vatRule);
      if (amount !== undefined) (charge ? charges : allowances).push(amount);
      if (vat) items.push({ path: p, source: charge ? 'charge' : 'allowance', ...vat, amount });
    });
    return { allowances, charges };
  }

  private vatOf(value: unknown, path: string, rule: string): { category: VatCategory; rate: Decimal | undefined } | undefined {
    if (!isDict(value)) {
      this.fail(rule, `${path}.category`, 'The VAT category code is missing.');
      return undefined;
    }
    const category = this.category(value.category, `${path}.category`, rule);
    const rate = this.optDecimal(value.rate, `${path}.rate`);
    return category === undefined ? undefined : { category, rate };
  }

  private category(value: unknown, path: string, rule: string): VatCategory | undefined {
    const text = this.text(value, path, rule, 'The VAT category code');
    if (text === undefined) return undefined;
    if (!(VAT_CATEGORIES as readonly string[]).includes(text)) {
      this.fail('BR-CL-17', path, `"${text}" is not a VAT category code of EN 16931 (${VAT_CATEGORIES.join(', ')}).`);
      return undefined;
    }
    return text as VatCategory;
  }

  // --- VAT breakdown --------------------------------------------------------------------------------------------

  private vatBreakdown(value: unknown): { path: string; category: VatCategory; rate?: Decimal; basis?: Decimal; tax?: Decimal; exempt: boolean }[] {
    const rows = this.list(value, 'vatBreakdown');
    if (rows.length === 0 && this.level >= 1) this.fail('BR-CO-18', 'vatBreakdown', 'The invoice has no VAT breakdown (BG-23); it needs at least one.');
    const result: { path: string; category: VatCategory; rate?: Decimal; basis?: Decimal; tax?: Decimal; exempt: boolean }[] = [];
    rows.forEach((row, i) => {
      const p = `vatBreakdown[${i}]`;
      if (!isDict(row)) return this.fail('DOCRENDER-TYPE', p, 'A VAT breakdown entry is an object.');
      const category = this.category(row.category, `${p}.category`, 'BR-47');
      const basis = this.decimal(row.basis, `${p}.basis`, 'BR-45', 'The VAT category taxable amount (BT-116)', 'BR-DEC-19');
      const tax = this.decimal(row.tax, `${p}.tax`, 'BR-46', 'The VAT category tax amount (BT-117)', 'BR-DEC-20');
      const rate = category === 'O' ? this.optDecimal(row.rate, `${p}.rate`) : this.decimal(row.rate, `${p}.rate`, 'BR-48', 'The VAT category rate (BT-119)');
      const reason = this.optText(row.exemptionReason, `${p}.exemptionReason`);
      const reasonCode = this.optText(row.exemptionReasonCode, `${p}.exemptionReasonCode`);
      if (category === undefined) return;
      const prefix = RULE_PREFIX[category];
      const exempt = reason !== undefined || reasonCode !== undefined;
      if (NEEDS_EXEMPTION.has(category) && !exempt) this.fail(`${prefix}-10`, `${p}.exemptionReason`, `A VAT breakdown of category ${category} needs an exemption reason (BT-120) or code (BT-121).`);
      if (NO_EXEMPTION.has(category) && exempt) this.fail(`${prefix}-10`, `${p}.exemptionReason`, `A VAT breakdown of category ${category} must not have an exemption reason.`);
      if (category === 'O' && rate !== undefined) this.fail('BR-O-05', `${p}.rate`, 'A VAT breakdown of category O (not subject to VAT) has no rate.');
      if (ZERO_RATED.has(category) && rate !== undefined && rate !== 0n) this.fail(`${prefix}-09`, `${p}.rate`, `The rate of category ${category} is 0, not ${formatDecimal(rate, 0)}.`);
      if (category === 'S' && rate !== undefined && rate <= 0n) this.fail('BR-S-09', `${p}.rate`, 'The standard rate (category S) is above zero.');
      if (tax !== undefined && basis !== undefined) {
        if ((ZERO_RATED.has(category) || category === 'O') && tax !== 0n) this.fail(`${prefix}-09`, `${p}.tax`, `The VAT amount of category ${category} is 0, not ${formatDecimal(tax)}.`);
        else if (rate !== undefined && percentOf(basis, rate) !== tax) this.fail('BR-CO-17', `${p}.tax`, `The VAT amount ${formatDecimal(tax)} is not ${formatDecimal(rate, 0)} % of ${formatDecimal(basis)} (${formatDecimal(percentOf(basis, rate))}).`);
      }
      result.push({ path: p, category, rate, basis, tax, exempt });
    });
    return result;
  }

  /** BR-x-01 … BR-x-08 for each VAT category: lines, allowances and charges against the breakdown and the parties. */
  private vatCategories(
    items: VatItem[],
    breakdown: { path: string; category: VatCategory; rate?: Decimal; basis?: Decimal }[],
    seller: { vatId?: string; taxNumber?: string; legalId?: string },
    buyer: { vatId?: string; legalId?: string },
  ): void {
    const ruleBySource = { line: '05', allowance: '06', charge: '07' } as const;
    for (const item of items) {
      const prefix = RULE_PREFIX[item.category];
      const rule = `${prefix}-${ruleBySource[item.source]}`;
      if (item.category === 'O' && item.rate !== undefined) this.fail(rule, `${item.path}.vat.rate`, 'Category O (not subject to VAT) has no rate.');
      else if (item.category !== 'O' && item.rate === undefined) this.fail(rule, `${item.path}.vat.rate`, `Category ${item.category} needs a VAT rate.`);
      else if (item.rate !== undefined && ZERO_RATED.has(item.category) && item.rate !== 0n) this.fail(rule, `${item.path}.vat.rate`, `The rate of category ${item.category} is 0, not ${formatDecimal(item.rate, 0)}.`);
      else if (item.rate !== undefined && item.category === 'S' && item.rate <= 0n) this.fail(rule, `${item.path}.vat.rate`, 'The standard rate (category S) is above zero.');
    }
    const categories = new Set(items.map((i) => i.category));
    for (const category of categories) {
      const prefix = RULE_PREFIX[category];
      const first = items.find((i) => i.category === category) as VatItem;
      const rows = breakdown.filter((b) => b.category === category);
      const exactlyOne = ZERO_RATED.has(category) || category === 'O';
      if (rows.length === 0 || (exactlyOne && rows.length > 1)) {
        this.fail(`${prefix}-01`, 'vatBreakdown', `${first.path} is of VAT category ${category}: the VAT breakdown needs ${exactlyOne ? 'exactly one entry' : 'an entry'} of that category.`);
      }
      const sellerTaxed = seller.vatId !== undefined || seller.taxNumber !== undefined;
      if (category === 'O') {
        if (seller.vatId !== undefined || buyer.vatId !== undefined) this.fail('BR-O-02', first.path, 'An invoice with category O (not subject to VAT) carries no seller or buyer VAT identifier.');
      } else if (category === 'K') {
        if (seller.vatId === undefined || buyer.vatId === undefined) this.fail('BR-IC-02', first.path, 'An intra-community supply needs the seller and the buyer VAT identifiers (BT-31, BT-48).');
      } else if (category === 'AE') {
        if (!sellerTaxed || (buyer.vatId === undefined && buyer.legalId === undefined)) this.fail('BR-AE-02', first.path, 'A reverse-charge invoice needs the seller VAT identifier or tax number, and the buyer VAT identifier or legal registration.');
      } else if (category === 'G') {
        if (seller.vatId === undefined) this.fail('BR-G-02', first.path, 'An export outside the EU needs the seller VAT identifier (BT-31).');
      } else if (!sellerTaxed) {
        this.fail(`${prefix}-02`, first.path, `VAT category ${category} needs the seller VAT identifier (BT-31) or tax number (BT-32).`);
      }
      if (this.profile === 'xrechnung' && category !== 'O' && !sellerTaxed) this.fail('BR-DE-16', 'seller.vatId', 'XRechnung requires the seller VAT identifier or tax number for a taxed supply.');
      if (category === 'K') this.fail('BR-IC-12', first.path, 'An intra-community supply needs a deliver-to country (BT-80), which the e-invoice model does not carry yet.');
    }
    // Every rate of S, L and M used by a line, allowance or charge needs its own breakdown entry (else its amounts
    // are in no taxable amount, and BR-x-08 cannot see it).
    for (const item of items) {
      if (ZERO_RATED.has(item.category) || item.category === 'O' || item.rate === undefined) continue;
      if (breakdown.some((b) => b.category === item.category) && !breakdown.some((b) => b.category === item.category && b.rate === item.rate)) {
        this.fail('DOCRENDER-VAT-RATE', `${item.path}.vat.rate`, `The VAT breakdown has no entry for category ${item.category} at ${formatDecimal(item.rate, 0)} %.`);
      }
    }
    // BR-x-08: each breakdown's taxable amount is the sum over its category (and, for S, L and M, its rate).
    for (const row of breakdown) {
      if (row.basis === undefined) continue;
      const byRate = !(ZERO_RATED.has(row.category) || row.category === 'O');
      const matching = items.filter((i) => i.category === row.category && (!byRate || (i.rate !== undefined && i.rate === row.rate)));
      if (items.length === 0 || matching.some((i) => i.amount === undefined)) continue;
      const expected = sum(matching.map((i) => (i.source === 'allowance' ? -(i.amount as Decimal) : (i.amount as Decimal))));
      if (expected !== row.basis) {
        this.fail(
          `${RULE_PREFIX[row.category]}-08`,
          `${row.path}.basis`,
          `The taxable amount ${formatDecimal(row.basis)} of category ${row.category}${byRate && row.rate !== undefined ? ` at ${formatDecimal(row.rate, 0)} %` : ''} is not the sum of its line net amounts plus charges minus allowances (${formatDecimal(expected)}).`,
        );
      }
    }
  }

  // --- totals ---------------------------------------------------------------------------------------------------

  private totals(
    value: unknown,
    lineNets: Decimal[],
    allowances: Decimal[],
    charges: Decimal[],
    breakdown: { tax?: Decimal }[],
  ): { duePayable?: Decimal } {
    if (!isDict(value)) {
      this.fail('BR-13', 'totals', 'The document totals (BG-22) are missing.');
      return {};
    }
    const t = value;
    const lineTotal = this.level >= 1 ? this.decimal(t.lineTotal, 'totals.lineTotal', 'BR-12', 'The sum of line net amounts (BT-106)', 'BR-DEC-09') : this.optDecimal(t.lineTotal, 'totals.lineTotal', 'BR-DEC-09');
    const allowanceTotal = this.optDecimal(t.allowanceTotal, 'totals.allowanceTotal', 'BR-DEC-10');
    const chargeTotal = this.optDecimal(t.chargeTotal, 'totals.chargeTotal', 'BR-DEC-11');
    const taxBasisTotal = this.decimal(t.taxBasisTotal, 'totals.taxBasisTotal', 'BR-13', 'The invoice total without VAT (BT-109)', 'BR-DEC-12');
    const taxTotal = this.optDecimal(t.taxTotal, 'totals.taxTotal', 'BR-DEC-13');
    const rounding = this.optDecimal(t.rounding, 'totals.rounding', 'BR-DEC-17');
    const grandTotal = this.decimal(t.grandTotal, 'totals.grandTotal', 'BR-14', 'The invoice total with VAT (BT-112)', 'BR-DEC-14');
    const prepaid = this.optDecimal(t.prepaid, 'totals.prepaid', 'BR-DEC-16');
    const duePayable = this.decimal(t.duePayable, 'totals.duePayable', 'BR-15', 'The amount due for payment (BT-115)', 'BR-DEC-18');
    if (rounding !== undefined && this.level < 3) this.fail('DOCRENDER-PROFILE', 'totals.rounding', `${PROFILES[this.profile].label} cannot carry a rounding amount (BT-114).`);

    if (lineTotal !== undefined && lineNets.length > 0 && sum(lineNets) !== lineTotal) {
      this.fail('BR-CO-10', 'totals.lineTotal', `The sum of line net amounts ${formatDecimal(lineTotal)} is not the sum of the lines (${formatDecimal(sum(lineNets))}).`);
    }
    if (allowances.length > 0 || allowanceTotal !== undefined) {
      if (sum(allowances) !== (allowanceTotal ?? 0n)) this.fail('BR-CO-11', 'totals.allowanceTotal', `The sum of allowances ${formatDecimal(allowanceTotal ?? 0n)} is not the sum of the document allowances (${formatDecimal(sum(allowances))}).`);
    }
    if (charges.length > 0 || chargeTotal !== undefined) {
      if (sum(charges) !== (chargeTotal ?? 0n)) this.fail('BR-CO-12', 'totals.chargeTotal', `The sum of charges ${formatDecimal(chargeTotal ?? 0n)} is not the sum of the document charges (${formatDecimal(sum(charges))}).`);
    }
    if (lineTotal !== undefined && taxBasisTotal !== undefined) {
      const expected = lineTotal - (allowanceTotal ?? 0n) + (chargeTotal ?? 0n);
      if (expected !== taxBasisTotal) this.fail('BR-CO-13', 'totals.taxBasisTotal', `The total without VAT ${formatDecimal(taxBasisTotal)} is not line total − allowances + charges (${formatDecimal(expected)}).`);
    }
    const taxes = breakdown.map((b) => b.tax);
    if (taxes.length > 0 && taxes.every((x) => x !== undefined)) {
      const expected = sum(taxes as Decimal[]);
      if (taxTotal === undefined) {
        if (expected !== 0n || this.level >= 3) this.fail('BR-CO-14', 'totals.taxTotal', `The VAT total (BT-110) is missing; the VAT breakdown sums to ${formatDecimal(expected)}.`);
      } else if (expected !== taxTotal) {
        this.fail('BR-CO-14', 'totals.taxTotal', `The VAT total ${formatDecimal(taxTotal)} is not the sum of the VAT breakdown (${formatDecimal(expected)}).`);
      }
    }
    if (taxBasisTotal !== undefined && grandTotal !== undefined) {
      const expected = taxBasisTotal + (taxTotal ?? 0n);
      if (expected !== grandTotal) this.fail('BR-CO-15', 'totals.grandTotal', `The total with VAT ${formatDecimal(grandTotal)} is not the total without VAT plus VAT (${formatDecimal(expected)}).`);
    }
    if (grandTotal !== undefined && duePayable !== undefined) {
      const expected = grandTotal - (prepaid ?? 0n) + (rounding ?? 0n);
      if (expected !== duePayable) this.fail('BR-CO-16', 'totals.duePayable', `The amount due ${formatDecimal(duePayable)} is not the total with VAT − paid + rounding (${formatDecimal(expected)}).`);
    }
    return { duePayable };
  }

  // --- payment --------------------------------------------------------------------------------------------------

  private payment(value: unknown, duePayable: Decimal | undefined, issueDate: string | undefined): void {
    if (value === undefined || value === null) {
      if (this.profile === 'xrechnung') this.fail('BR-DE-1', 'payment', 'XRechnung requires the payment instructions (BG-16).');
      if (duePayable !== undefined && duePayable > 0n && this.level >= 1) this.fail('BR-CO-25', 'payment.dueDate', 'An amount is due: give a payment due date (BT-9) or payment terms (BT-20).');
      return;
    }
    if (!isDict(value)) return this.fail('DOCRENDER-TYPE', 'payment', 'The payment instructions are an object.');
    const code = this.text(value.meansCode, 'payment.meansCode', 'BR-49', 'The payment means type code (BT-81)');
    if (code !== undefined && !/^(?:[1-9]\d?|ZZZ)$/.test(code)) this.fail('BR-CL-16', 'payment.meansCode', `"${code}" is not a UNTDID 4461 payment means code.`);
    this.optText(value.meansText, 'payment.meansText');
    this.optText(value.reference, 'payment.reference');
    const iban = this.optText(value.iban, 'payment.iban');
    if (code !== undefined && CREDIT_TRANSFER.has(code) && iban === undefined) {
      this.fail(this.profile === 'xrechnung' ? 'BR-DE-23-a' : 'BR-61', 'payment.iban', 'A credit transfer needs the payment account identifier (BT-84, the IBAN).');
    }
    if (iban !== undefined && code === '58' && !validIban(iban)) this.fail('DOCRENDER-IBAN', 'payment.iban', `"${iban}" is not a valid IBAN (ISO 13616 check digits).`);
    this.optText(value.accountName, 'payment.accountName');
    const bic = this.optText(value.bic, 'payment.bic');
    if (bic !== undefined && !/^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(bic)) this.fail('DOCRENDER-BIC', 'payment.bic', `"${bic}" is not a BIC (ISO 9362: 8 or 11 letters and digits).`);
    const terms = this.optText(value.terms, 'payment.terms');
    const dueDate = this.optDate(value.dueDate, 'payment.dueDate');
    if (dueDate !== undefined && issueDate !== undefined && dueDate < issueDate) this.fail('DOCRENDER-DUE-DATE', 'payment.dueDate', `The due date ${dueDate} is before the issue date ${issueDate}.`);
    const mandate = this.optText(value.mandateId, 'payment.mandateId');
    this.optText(value.creditorId, 'payment.creditorId');
    const debited = this.optText(value.debitedIban, 'payment.debitedIban');
    if (code === '59' && (mandate === undefined || debited === undefined)) this.fail('DOCRENDER-DIRECT-DEBIT', 'payment.mandateId', 'A SEPA direct debit needs the mandate reference (BT-89) and the debited account (BT-91).');
    if (duePayable !== undefined && duePayable > 0n && dueDate === undefined && terms === undefined && this.level >= 1) {
      this.fail('BR-CO-25', 'payment.dueDate', 'An amount is due: give a payment due date (BT-9) or payment terms (BT-20).');
    }
  }

  // --- values ---------------------------------------------------------------------------------------------------

  private fail(rule: string, path: string, message: string): void {
    this.violations.push({ rule, path, message });
  }

  private list(value: unknown, path: string): unknown[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.fail('DOCRENDER-TYPE', path, 'Expected a list.');
      return [];
    }
    return value;
  }

  /** A required value: missing (undefined, null or empty) fails `rule`; one given is read by `read`. */
  private required<T>(value: unknown, path: string, rule: string, label: string, read: () => T | undefined): T | undefined {
    if (value === undefined || value === null || value === '') {
      this.fail(rule, path, `${label} is missing.`);
      return undefined;
    }
    return read();
  }

  /** A required text: missing or empty fails `rule`; a number is taken as its text. */
  private text(value: unknown, path: string, rule: string, label: string): string | undefined {
    return this.required(value, path, rule, label, () => this.optText(value, path));
  }

  private optText(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value !== 'string') {
      this.fail('DOCRENDER-TYPE', path, `Expected text, got ${Array.isArray(value) ? 'a list' : typeof value}.`);
      return undefined;
    }
    if (!XML_CHARACTERS.test(value)) {
      this.fail('DOCRENDER-XML-CHAR', path, 'The text contains a control character that XML 1.0 cannot carry.');
      return undefined;
    }
    if (value.trim() === '') {
      this.fail('DOCRENDER-TYPE', path, 'The text is blank.');
      return undefined;
    }
    return value;
  }

  private decimal(value: unknown, path: string, rule: string, label: string, centsRule?: string): Decimal | undefined {
    return this.required(value, path, rule, label, () => this.optDecimal(value, path, centsRule));
  }

  private optDecimal(value: unknown, path: string, centsRule?: string): Decimal | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    const d = parseDecimal(value);
    if (d === undefined) {
      this.fail('DOCRENDER-DECIMAL', path, `${JSON.stringify(value)?.slice(0, 40)} is not a decimal number (a number, or text such as "1234.50").`);
      return undefined;
    }
    if (centsRule !== undefined && decimalPlaces(d) > 2) {
      this.fail(centsRule, path, `The amount ${formatDecimal(d)} has more than two decimals.`);
      return undefined;
    }
    return d;
  }

  private date(value: unknown, path: string, rule: string, label: string): string | undefined {
    return this.required(value, path, rule, label, () => this.optDate(value, path));
  }

  private optDate(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string' || !isCalendarDate(value)) {
      this.fail('DOCRENDER-DATE', path, `${JSON.stringify(value)?.slice(0, 40)} is not a calendar date (YYYY-MM-DD).`);
      return undefined;
    }
    return value;
  }

  private period(value: unknown, path: string, rule: string): { start?: string; end?: string } | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isDict(value)) {
      this.fail('DOCRENDER-TYPE', path, 'A period is an object with "start" and/or "end".');
      return undefined;
    }
    const start = this.optDate(value.start, `${path}.start`);
    const end = this.optDate(value.end, `${path}.end`);
    if (start === undefined && end === undefined) this.fail(rule === 'BR-29' ? 'BR-CO-19' : 'BR-CO-20', path, 'A period needs a start or an end date.');
    if (start !== undefined && end !== undefined && end < start) this.fail(rule, `${path}.end`, `The period ends (${end}) before it starts (${start}).`);
    return { start, end };
  }
}

function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isCalendarDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** ISO 13616: two letters, two check digits, up to 30 letters and digits; mod 97 of the rearranged number is 1. */
export function validIban(iban: string): boolean {
  const compact = iban.replace(/ /g, '');
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const digits = (compact.slice(4) + compact.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of digits) rest = (rest * 10 + Number(ch)) % 97;
  return rest === 1;
}
