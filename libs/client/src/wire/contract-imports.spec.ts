import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { transformFileSync } from '@swc/core';
import * as Values from '@docrender/contracts/values';

const LIB_SRC = path.resolve(__dirname, '..');
const WEBHOOKS_SRC = path.resolve(__dirname, '../../../webhooks/src');

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(f))
    .map((f) => path.join(dir, f));
}

/** The names a file imports as values (not `import type`, not `type X` members) from `@docrender/contracts` (not from its `/values` entry). */
function valueImportsFromContracts(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const names: string[] = [];
  for (const match of text.matchAll(/import\s+(type\s+)?(\*\s+as\s+\w+|\{[^}]*\})\s+from\s+'@docrender\/contracts'/g)) {
    if (match[1]) continue;
    if (match[2].startsWith('*')) {
      names.push('*');
      continue;
    }
    for (const part of match[2].slice(1, -1).split(',')) {
      const name = part.trim();
      if (name !== '' && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/)[0]);
    }
  }
  return names;
}

describe('the SDK’s run-time imports from the contracts', () => {
  it('7.5: the SDK imports values only from the contracts’ decorator-free entry (@docrender/contracts/values), so users do not load NestJS', () => {
    const offenders = sources(LIB_SRC).flatMap((file) => valueImportsFromContracts(file).map((name) => `${path.relative(LIB_SRC, file)}: ${name}`));
    expect(offenders).toEqual([]);
  });

  it('the decorator-free entry exports every value the shared webhook library uses from the contracts at run time (the package build points those imports there)', () => {
    // Compiled as the package build compiles it: type-only uses are erased, the values remain as `_contracts.<name>`.
    const used = new Set(
      sources(WEBHOOKS_SRC).flatMap((file) => {
        const { code } = transformFileSync(file, { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } });
        return [...code.matchAll(/_contracts\.(\w+)/g)].map((m) => m[1]);
      }),
    );
    expect([...used]).toEqual(expect.arrayContaining(['Environment', 'WebhookHeader', 'Limits']));
    const missing = [...used].filter((name) => !(name in Values));
    expect(missing).toEqual([]);
  });
});
