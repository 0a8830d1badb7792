import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { notOkDocument, REPO_ROOT } from '@docrender/testing';
import { runCli } from '../cli';
import type { CliIo } from '../cli/cli-io';
import { COMMANDS } from '.';
import { checkCommand } from './check.repository';

function io(baseDir: string): CliIo & { out: string; err: string } {
  const captured = {
    out: '',
    err: '',
    env: {},
    baseDir,
    stderrIsTty: false,
    stdout: (t: string) => void (captured.out += t),
    stderr: (t: string) => void (captured.err += t),
  };
  return captured;
}

const check = async (dir: string, ...args: string[]) => {
  const cli = io(dir);
  const code = await runCli(['check', ...args], cli, [...COMMANDS, checkCommand]);
  return { code, out: cli.out, err: cli.err };
};

describe('issue 21 item 8: docrender check template.json data.json — every issue the DSL finds, without Chromium or a key', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docrender-check-'));
    const template = {
      body: [
        { type: 'text', id: 'greeting', text: 'Dear {{ customer.nmae }},' },
        { type: 'text', id: 'paid', visibleIf: "statsu == 'paid'", text: 'PAID' },
        { type: 'table', id: 'lines', source: 'lines', columns: [{ id: 'amount', value: '{{ item.qty * item.price | currency("EUR") }}' }] },
      ],
    };
    await writeFile(path.join(dir, 'template.json'), JSON.stringify(template));
    await writeFile(path.join(dir, 'broken.json'), JSON.stringify({ body: [{ type: 'text', id: 't', text: 'Total {{ qty * }}' }] }));
    await writeFile(path.join(dir, 'data.ndjson'), `${JSON.stringify({ customer: { name: 'Ada' }, status: 'paid', lines: [{ qty: 2, price: 5 }] })}\n${JSON.stringify({ customer: { name: 'Bo' }, status: 'open', lines: [{ qty: 'two', price: 5 }] })}\n`);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints every issue of every document with its element, and exits 1 when the production gate is blocked', async () => {
    const r = await check(dir, 'template.json', 'data.ndjson');
    expect(r.code).toBe(1);
    expect(r.out).toContain('Invalid (production gate): 2 document(s), 5 issue(s)');
    expect(r.out).toContain('Warning     MissingBinding (document 0, element greeting): "{{ customer.nmae }}" has no value in the data.');
    expect(r.out).toContain('Warning     InvalidCondition (document 0, element paid): The condition "statsu == \'paid\'" cannot be what was meant: "statsu" has no value in the data');
    expect(r.out).toContain('Warning     BindingFailedAtRender (document 1, element lines): "{{ item.qty * item.price | currency("EUR") }}": "item.qty * item.price": text "two" is not a number.');
  });

  it('the test gate fails only on Error issues; --json prints one document', async () => {
    expect((await check(dir, 'template.json', 'data.ndjson', '--gate', 'test')).code).toBe(0);
    const r = await check(dir, 'template.json', 'data.ndjson', '--json');
    const result = JSON.parse(r.out) as { valid: boolean; issues: { documentIndex: number; type: string }[] };
    expect(result.valid).toBe(false);
    expect(result.issues.map((i) => [i.documentIndex, i.type])).toContainEqual([1, 'BindingFailedAtRender']);
  });

  it('a template the service would refuse (422) is reported with the JSON path and the character', async () => {
    const r = await check(dir, 'broken.json', 'data.ndjson');
    expect(r.code).toBe(1);
    expect(r.out).toContain('$.body[0].text: binding syntax error at character 16: Expected expression after *');
  });

  it('issue 33 item 3: a character no font can draw blocks the production gate, with its element and code point', async () => {
    await writeFile(path.join(dir, 'glyphs.json'), JSON.stringify({ body: [{ type: 'text', id: 'note', text: 'Korean 세금 and {{ mark }}' }] }));
    await writeFile(path.join(dir, 'glyphs-data.json'), JSON.stringify({ mark: '\uE000' }));
    const r = await check(dir, 'glyphs.json', 'glyphs-data.json');
    expect(r.code).toBe(1);
    expect(r.out).toContain('Invalid (production gate): 1 document(s), 1 issue(s)');
    expect(r.out).toContain('Warning     UnresolvedFont (document 0, element note): No font of the family chain of "Inter" (then the built-in script fonts) has a glyph for "U+E000"');
  });

  it('the invoice example passes', async () => {
    const r = await check(REPO_ROOT, 'examples/invoice/template.json', 'examples/invoice/data.json');
    expect(r.out).toContain('Valid (production gate): 1 document(s), 0 issue(s)');
    expect(r.code).toBe(0);
  });

  it('issue 31 item 2: the document caps a production render blocks on are reported (a 20,000 × 20,000 PNG, a 1 mm page)', async () => {
    for (const name of ['png-20000x20000', 'page-1mm']) {
      const attack = notOkDocument(name);
      await writeFile(path.join(dir, `${name}.template.json`), JSON.stringify(attack.template));
      await writeFile(path.join(dir, `${name}.data.json`), JSON.stringify(attack.data));
    }
    const png = await check(dir, 'png-20000x20000.template.json', 'png-20000x20000.data.json');
    expect(png.code).toBe(1);
    expect(png.out).toContain('Warning     UnresolvedImage (document 0, element photo): The image cannot be shown: the data URI is too large to print: it is 20,000 × 20,000 pixels (400 megapixels)');
    const page = await check(dir, 'page-1mm.template.json', 'page-1mm.data.json');
    expect(page.code).toBe(1);
    expect(page.out).toContain('Warning     RenderLayoutDegraded');
    expect(page.out).toContain('page.size 1 mm × 1 mm is outside the supported range');
  });

  it('is only in the repository build: the published command list does not have it', async () => {
    const cli = io(dir);
    expect(await runCli(['check', 'template.json', 'data.ndjson'], cli)).toBe(2);
    expect(cli.err).toMatch(/unknown command 'check/);
  });
});
