import type { Template } from '../model/template.types';
import { validateTemplate } from '../schema/validate-template';
import { compileDocument } from './compile-document';

/**
 * A small document in the shape most templates take (a heading, text with data and a date, a table with a totals
 * row, a QR code, page numbers in the footer, the default font) and its data, compiled by warmUp.
 */
const SAMPLE: Template = {
  dsl: 1,
  name: 'Warm-up',
  title: 'Warm-up {{ number }}',
  locale: 'en-GB',
  currency: 'EUR',
  page: { size: 'A4', footer: { height: '10mm', elements: [{ type: 'text', id: 'page', text: 'Page {{ pageNumber }} of {{ totalPages }}' }] } },
  dataSchema: {
    type: 'object',
    required: ['number', 'issued', 'items'],
    properties: {
      number: { type: 'string' },
      issued: { type: 'string' },
      items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, amount: { type: 'number' } } } },
    },
  },
  body: [
    { type: 'text', id: 'title', heading: 1, text: 'Document {{ number }}', style: { fontSize: 18, fontWeight: 700 } },
    { type: 'text', id: 'date', text: "Issued {{ issued | date('long') }}" },
    {
      type: 'table',
      id: 'items',
      source: 'items',
      as: 'item',
      columns: [
        { id: 'name', header: 'Item', value: '{{ item.name }}' },
        { id: 'amount', header: 'Amount', value: '{{ item.amount | currency }}', align: 'right' },
      ],
      totals: { cells: { name: 'Total', amount: "{{ sum(items, 'amount') | currency }}" } },
    },
    { type: 'qrCode', id: 'code', value: 'https://example.com/{{ number }}', size: '20mm' },
  ],
};

const SAMPLE_DATA = { number: 'W-1', issued: '2026-01-31', items: [{ name: 'One', amount: 1.5 }, { name: 'Two', amount: 2.25 }] };

/**
 * Does once, on this thread, the work a thread's first document otherwise pays for: compiling the template validator
 * (compileTemplateValidator), reading the default font's character map, and the first runs of the compiler's code —
 * about 0.55 s of CPU on a 2-core AMD EPYC, where the invoice then compiles in about 35 ms. A compile thread calls
 * it before it serves (decision 0023), so neither the first documents after the service starts nor the first after a
 * thread is replaced wait for it. Throws when the sample is not a valid document: the sample is wrong, not the thread.
 */
export function warmUp(): void {
  const validation = validateTemplate(SAMPLE);
  if (!validation.ok) throw new Error(`the warm-up template is not valid: ${validation.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
  const compiled = compileDocument({ template: validation.template, data: SAMPLE_DATA });
  if (compiled.issues.length > 0) throw new Error(`the warm-up document has issues: ${compiled.issues.map((i) => i.description).join('; ')}`);
}
