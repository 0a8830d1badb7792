import { IssueSeverity, RenderIssueType } from '@docrender/contracts';
import { compileDocument } from '../render/compile-document';
import { validateTemplate } from '../schema/validate-template';
import { invoiceData, invoiceTemplate } from './test/invoice-template';

/** The text the page shows (the HTML without its tags). */
const shown = (html: string) => html.replace(/<[^>]+>/g, '');

describe('issue 34 item 3: a template maps its data to the e-invoice with the page’s expressions', () => {
  it('the XML carries the number, date and totals the page prints', () => {
    const template = invoiceTemplate();
    expect(validateTemplate(template)).toEqual(expect.objectContaining({ ok: true }));
    const compiled = compileDocument({ template, data: invoiceData() });
    expect(compiled.issues).toEqual([]);
    expect(compiled.eInvoice).toEqual(expect.objectContaining({ profile: 'en16931', fileName: 'factur-x.xml', conformanceLevel: 'EN 16931' }));
    const xml = compiled.eInvoice?.xml ?? '';
    expect(shown(compiled.html)).toContain('Rechnung RE-2026-0815 vom 2026-11-29');
    expect(shown(compiled.html)).toContain('Gesamt: 2151.08 EUR');
    for (const element of [
      '<ram:ID>RE-2026-0815</ram:ID>',
      '<udt:DateTimeString format="102">20261129</udt:DateTimeString>',
      '<ram:GrandTotalAmount>2151.08</ram:GrandTotalAmount>',
      '<ram:LineTotalAmount>119.70</ram:LineTotalAmount>',
      '<ram:PaymentReference>Rechnung RE-2026-0815</ram:PaymentReference>',
    ])
      expect(xml).toContain(element);
  });

  it('a line changed in the data changes the XML, and totals that no longer add up are an Error naming rule, path and binding', () => {
    const data = invoiceData();
    data.items[1].qty = 4;
    const compiled = compileDocument({ template: invoiceTemplate(), data });
    expect(compiled.eInvoice).toBeNull();
    const descriptions = compiled.issues.map((i) => [i.type, i.severity, i.description]);
    expect(descriptions).toEqual(
      expect.arrayContaining([
        [RenderIssueType.SchemaInvalid, IssueSeverity.Error, expect.stringMatching(/^E-invoice \(Factur-X \/ ZUGFeRD EN 16931\) rule BR-CO-10 at eInvoice\.invoice\.totals\.lineTotal \("\{\{ net \}\}"\): /)],
        [RenderIssueType.SchemaInvalid, IssueSeverity.Error, expect.stringMatching(/rule BR-S-08 at eInvoice\.invoice\.vatBreakdown\[1\]\.basis \("\{\{ item\.basis \}\}"\)/)],
      ]),
    );
    data.vat[1] = { rate: 7, basis: 159.6, amount: 11.17 };
    Object.assign(data, { net: 1859.6, tax: 334.17, gross: 2193.77 });
    const fixed = compileDocument({ template: invoiceTemplate(), data });
    expect(fixed.issues).toEqual([]);
    expect(fixed.eInvoice?.xml).toContain('<ram:BilledQuantity unitCode="H87">4</ram:BilledQuantity>');
    expect(fixed.eInvoice?.xml).toContain('<ram:GrandTotalAmount>2193.77</ram:GrandTotalAmount>');
    expect(shown(fixed.html)).toContain('Gesamt: 2193.77 EUR');
  });

  it('issue 31 item 2: an $each that runs the step budget out stops with the budget issue, and no e-invoice is built from the partly evaluated data', () => {
    const template = invoiceTemplate();
    const invoice = { ...(template.eInvoice?.invoice as Record<string, unknown>), notes: { $each: 'many', $value: { text: 'note {{ item }} {{ item }} {{ item }}' } } };
    const data = { ...invoiceData(), many: Array<number>(400_000).fill(0) };
    const compiled = compileDocument({ template: { ...template, eInvoice: { profile: 'en16931', invoice } }, data });
    expect(compiled.issues).toEqual(expect.arrayContaining([expect.objectContaining({ type: RenderIssueType.BindingFailedAtRender, description: expect.stringContaining('Expressions stopped') })]));
    expect(compiled.eInvoice).toBeNull();
  });

  it('a value missing from the data is a MissingBinding and the rule it breaks (BR-02) an Error', () => {
    const data: Record<string, unknown> = invoiceData();
    delete data.number;
    const compiled = compileDocument({ template: invoiceTemplate(), data });
    expect(compiled.eInvoice).toBeNull();
    expect(compiled.issues.map((i) => i.description)).toEqual(
      expect.arrayContaining([expect.stringContaining('"{{ number }}" has no value in the data.'), expect.stringMatching(/rule BR-02 at eInvoice\.invoice\.number \("\{\{ number \}\}"\): The invoice number \(BT-1\) is missing\./)]),
    );
  });

  it('the template is refused when a binding or a list source does not parse, or the profile is unknown', () => {
    const template = invoiceTemplate() as unknown as { eInvoice: { profile: string; invoice: Record<string, unknown> } };
    template.eInvoice.invoice.number = '{{ number + }}';
    template.eInvoice.invoice.lines = { $each: 'items[', $value: {} };
    const validation = validateTemplate(template);
    expect(validation.ok ? [] : validation.errors.map((e) => e.path)).toEqual(expect.arrayContaining(['$.eInvoice.invoice.number', '$.eInvoice.invoice.lines.$each']));
    const unknown = validateTemplate({ ...template, eInvoice: { ...template.eInvoice, profile: 'zugferd1' } });
    expect(unknown.ok ? [] : unknown.errors.map((e) => e.path)).toContain('$.eInvoice.profile');
  });
});
