import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { transformFileSync } from '@swc/core';
import * as Contracts from '@docrender/contracts';
import * as Values from './contract-values';

const LIB_SRC = path.resolve(__dirname, '..');
const WEBHOOKS_SRC = path.resolve(__dirname, '../../../webhooks/src');

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(f))
    .map((f) => path.join(dir, f));
}

/** The names a file imports as values (not `import type`, not `type X` members) from `@docrender/contracts`. */
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

describe('the SDK’s runtime copy of the contract values', () => {
  it.each(['Environment', 'DocumentType', 'IssueSeverity', 'RenderIssueType', 'RenderStatus', 'JobState', 'WebhookEvent', 'ErrorCode', 'SortDirection', 'FilterOperator'] as const)(
    '%s has exactly the contract’s members and values',
    (name) => {
      expect({ ...Values[name] }).toEqual({ ...Contracts[name] });
    },
  );

  it.each(['API_KEY_PREFIX', 'WEBHOOK_SECRET_PREFIX', 'ISSUE_SEVERITY', 'WebhookHeader', 'Limits'] as const)('%s equals the contract’s', (name) => {
    expect(JSON.parse(JSON.stringify(Values[name]))).toEqual(JSON.parse(JSON.stringify(Contracts[name])));
  });

  it('4.1: LISTING_FIELDS names the filterable and sortable fields of every list endpoint, default sort first', () => {
    const expected = Object.fromEntries(
      Object.entries(Contracts.LISTINGS).map(([name, listing]) => [name, { filterable: Object.keys(listing.filterable), sortable: [...listing.sortable] }]),
    );
    expect(JSON.parse(JSON.stringify(Values.LISTING_FIELDS))).toEqual(expected);
  });

  it('7.5: the SDK imports nothing from @docrender/contracts at runtime (import type only), so users do not load NestJS', () => {
    const offenders = sources(LIB_SRC).flatMap((file) => valueImportsFromContracts(file).map((name) => `${path.relative(LIB_SRC, file)}: ${name}`));
    expect(offenders).toEqual([]);
  });

  it('exports every value the shared webhook library uses from the contracts at runtime (the package build points those imports here)', () => {
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
