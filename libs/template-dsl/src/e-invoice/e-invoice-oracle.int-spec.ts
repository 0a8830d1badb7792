import { ciiValidate } from '@docrender/e-invoice/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileDocument } from '../render/compile-document';
import { invoiceData, invoiceTemplate } from './test/invoice-template';

// The outside validator takes minutes on a busy machine: the bound is generous, nothing is timed.
const ORACLE_BOUND_MS = 600_000;

describe('issue 34 item 3: the XML a template maps from its data passes the outside validator (cii-validate)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'e-invoice-template-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['en16931', 'xrechnung'] as const)('profile %s: the compiled document’s XML has zero failed rules', async (profile) => {
    const compiled = compileDocument({ template: invoiceTemplate(profile), data: invoiceData() });
    expect(compiled.issues).toEqual([]);
    const eInvoice = compiled.eInvoice;
    if (!eInvoice) throw new Error('the document has no e-invoice');
    const file = join(dir, eInvoice.fileName);
    writeFileSync(file, eInvoice.xml);
    const run = await ciiValidate(profile, file);
    expect(run.output).toMatch(new RegExp(`is valid \\(${profile}: XSD \\+ Schematron\\)`));
    expect(run.exitCode).toBe(0);
  }, ORACLE_BOUND_MS);
});
