import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compileDocument } from './render/compile-document';
import { Template } from './model/template.types';
import { validateTemplate } from './schema/validate-template';

/**
 * docs/template-dsl.md promises a runnable example for every feature: each JSON block announced by
 * `<!-- example -->` (no issues expected) or `<!-- example: IssueType -->` (exactly that issue type expected) is a
 * stateless render body that must validate and compile as announced.
 */
const doc = readFileSync(path.resolve(__dirname, '../../../docs/template-dsl.md'), 'utf8');
const blocks = [...doc.matchAll(/<!-- example(?:: (\w+))? -->\s*```json\n([\s\S]*?)\n```/g)].map((m, i) => ({
  name: `#${i + 1}${m[1] ? ` (${m[1]})` : ''}`,
  expected: m[1] ?? null,
  body: JSON.parse(m[2]) as { template: unknown; data: unknown; translations?: unknown },
}));

describe('docs/template-dsl.md examples', () => {
  it('has examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(20);
  });

  it.each(blocks.map((b) => [b.name, b] as const))('example %s is a valid template that compiles as announced', (_name, block) => {
    const validation = validateTemplate(block.body.template);
    expect(validation.ok ? [] : validation.errors).toEqual([]);
    const compiled = compileDocument({ template: block.body.template as Template, data: block.body.data, translations: block.body.translations });
    expect([...new Set(compiled.issues.map((i) => i.type))]).toEqual(block.expected ? [block.expected] : []);
  });
});
