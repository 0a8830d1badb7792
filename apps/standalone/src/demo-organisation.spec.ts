import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSeedFile } from '@docrender/persistence';
import { demoSeed, DEMO_FONTS } from './demo-organisation';

const examples = path.resolve(__dirname, '../../../examples');

describe('demo organisation of one-process mode', () => {
  it('is a valid seed file whose file references all exist', () => {
    const seed = demoSeed({ testKey: 'service_test_x'.padEnd(40, 'x'), productionKey: 'service_prod_y'.padEnd(40, 'y'), webhookSecret: 'whsec_z'.padEnd(40, 'z') });
    expect(() => parseSeedFile(seed)).not.toThrow();
    const files = JSON.stringify(seed).match(/"file":"[^"]+"/g) ?? [];
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const ref of files) expect(() => readFileSync(path.join(examples, ref.slice(8, -1)))).not.toThrow();
    for (const font of DEMO_FONTS) for (const f of font.files) expect(() => readFileSync(path.join(examples, f.path))).not.toThrow();
  });

  it('carries every example of examples/ (each folder with a template.json), each once', () => {
    const seed = demoSeed({ testKey: 'service_test_x'.padEnd(40, 'x'), productionKey: 'service_prod_y'.padEnd(40, 'y'), webhookSecret: 'whsec_z'.padEnd(40, 'z') });
    const templates = (JSON.stringify(seed).match(/"file":"[^"/]+\/template\.json"/g) ?? []).map((ref) => ref.slice(8, -'/template.json"'.length));
    const folders = readdirSync(examples, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(path.join(examples, entry.name, 'template.json')))
      .map((entry) => entry.name);
    expect([...templates].sort()).toEqual([...folders].sort());
  });

  it('examples/invoice/request.json, used by the README curl, carries exactly the sample invoice data', () => {
    const request = JSON.parse(readFileSync(path.join(examples, 'invoice/request.json'), 'utf8')) as { documents: unknown[] };
    expect(request.documents).toEqual([JSON.parse(readFileSync(path.join(examples, 'invoice/data.json'), 'utf8'))]);
  });
});
