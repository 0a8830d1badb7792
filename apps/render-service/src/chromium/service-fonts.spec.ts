import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scriptFontFiles } from '@docrender/template-dsl';
import { serviceFontConfigFile } from './service-fonts';

describe('issue 33 item 2: the fontconfig configuration of the render service’s Chromium', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'docrender-fontconfig-test-'));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('names one font directory, holding links to the built-in script fonts and nothing else, and includes no other configuration', () => {
    const file = serviceFontConfigFile(root);
    const xml = readFileSync(file, 'utf8');
    const dirs = [...xml.matchAll(/<dir>([^<]*)<\/dir>/g)].map((m) => m[1]);
    expect(dirs).toHaveLength(1);
    expect(xml).not.toMatch(/<include|prefix="xdg"|\/usr\/share\/fonts|\/etc\/fonts/);
    const linked = readdirSync(dirs[0]).map((name) => realpathSync(path.join(dirs[0], name)));
    expect(linked.sort()).toEqual(scriptFontFiles().map((f) => realpathSync(f)).sort());
    // made again, the same file
    expect(serviceFontConfigFile(root)).toBe(file);
  });
});
