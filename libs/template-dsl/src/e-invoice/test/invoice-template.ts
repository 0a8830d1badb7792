import { Template } from '../../model/template.types';
import { TemplateEInvoice } from '../e-invoice-mapping';

/** An invoice as an application sends it, and a template that prints it and maps it to the EN 16931 model. */
export function invoiceData() {
  return {
    number: 'RE-2026-0815',
    date: '2026-11-29',
    due: '2026-12-13',
    delivered: '2026-11-20',
    leitwegId: '04011000-12345-34',
    seller: {
      name: 'Muster Solar GmbH', vatId: 'DE123456789', street: 'Sonnenallee 12', zip: '12045', city: 'Berlin', iban: 'DE02120300000000202051', bic: 'BYLADEM1001',
      contact: { name: 'Erika Muster', phone: '+49 30 1234567', email: 'buchhaltung@muster-solar.example' },
    },
    customer: { name: 'Beispiel Handel AG', vatId: 'DE987654321', street: 'Industriestraße 5', zip: '80331', city: 'München' },
    items: [
      { name: 'Wechselrichter WR-5000', qty: 2, unit: 'H87', price: 850, vat: 19 },
      { name: 'Fachbuch Photovoltaik', qty: 3, unit: 'H87', price: 39.9, vat: 7 },
    ],
    vat: [
      { rate: 19, basis: 1700, amount: 323 },
      { rate: 7, basis: 119.7, amount: 8.38 },
    ],
    net: 1819.7,
    tax: 331.38,
    gross: 2151.08,
  };
}

/** The template; for XRechnung it also maps the Leitweg-ID and the seller contact XRechnung requires. */
export function invoiceTemplate(profile: TemplateEInvoice['profile'] = 'en16931'): Template {
  const xrechnung = profile === 'xrechnung';
  return {
    title: 'Rechnung {{ number }}',
    eInvoice: {
      profile,
      invoice: {
        ...(xrechnung ? { buyerReference: '{{ leitwegId }}' } : {}),
        number: '{{ number }}',
        typeCode: '380',
        issueDate: '{{ date }}',
        currency: 'EUR',
        deliveryDate: '{{ delivered }}',
        seller: {
          name: '{{ seller.name }}',
          vatId: '{{ seller.vatId }}',
          address: { line1: '{{ seller.street }}', postcode: '{{ seller.zip }}', city: '{{ seller.city }}', country: 'DE' },
          ...(xrechnung ? { contact: { name: '{{ seller.contact.name }}', phone: '{{ seller.contact.phone }}', email: '{{ seller.contact.email }}' } } : {}),
        },
        buyer: {
          name: '{{ customer.name }}',
          vatId: '{{ customer.vatId }}',
          address: { line1: '{{ customer.street }}', postcode: '{{ customer.zip }}', city: '{{ customer.city }}', country: 'DE' },
        },
        lines: {
          $each: 'items',
          $as: 'line',
          $value: {
            id: '{{ loop.number }}',
            name: '{{ line.name }}',
            quantity: '{{ line.qty }}',
            unit: '{{ line.unit }}',
            netPrice: '{{ line.price }}',
            netAmount: '{{ round(line.qty * line.price, 2) }}',
            vat: { category: 'S', rate: '{{ line.vat }}' },
          },
        },
        vatBreakdown: { $each: 'vat', $value: { category: 'S', rate: '{{ item.rate }}', basis: '{{ item.basis }}', tax: '{{ item.amount }}' } },
        totals: { lineTotal: '{{ net }}', taxBasisTotal: '{{ net }}', taxTotal: '{{ tax }}', grandTotal: '{{ gross }}', duePayable: '{{ gross }}' },
        payment: { meansCode: '58', iban: '{{ seller.iban }}', bic: '{{ seller.bic }}', dueDate: '{{ due }}', reference: 'Rechnung {{ number }}' },
      },
    },
    body: [
      { type: 'text', id: 'number', text: 'Rechnung {{ number }} vom {{ date }}' },
      { type: 'text', id: 'gross', text: 'Gesamt: {{ gross }} EUR' },
    ],
  };
}
