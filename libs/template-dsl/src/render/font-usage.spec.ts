import { fontFamilyUsage, type VersionDsl } from './font-usage';

const dsl = (body: unknown[], extra: Record<string, unknown> = {}): string => JSON.stringify({ body, ...extra });
const text = (id: string, fontFamily?: string) => ({ type: 'text', id, text: id, ...(fontFamily === undefined ? {} : { style: { fontFamily } }) });

describe('fontFamilyUsage (issue 35 item 4: which templates use a font family)', () => {
  const versions: VersionDsl[] = [
    { templateId: 't1', templateName: 'Invoice', versionNumber: 1, published: true, templateJson: dsl([text('a')]) },
    { templateId: 't1', templateName: 'Invoice', versionNumber: 2, published: false, templateJson: dsl([text('a'), text('b', 'Brand Sans')]) },
    { templateId: 't2', templateName: 'Letter', versionNumber: 1, published: true, templateJson: dsl([text('a')], { defaultStyle: { fontFamily: 'brand sans ' } }) },
    { templateId: 't3', templateName: 'Serif note', versionNumber: 1, published: false, templateJson: dsl([text('a', 'serif')]) },
    { templateId: 't4', templateName: 'Broken', versionNumber: 1, published: false, templateJson: '{ not json' },
  ];
  const usage = fontFamilyUsage(versions);

  it('names each template with the versions (published or draft) whose DSL uses the family, matched as a render matches it (trimmed, any case)', () => {
    expect(usage.get('brand sans')).toEqual([
      { templateId: 't1', templateName: 'Invoice', versions: [{ versionNumber: 2, published: false }] },
      { templateId: 't2', templateName: 'Letter', versions: [{ versionNumber: 1, published: true }] },
    ]);
  });

  it('maps generic names to the built-in families, and counts the default family of templates that do not change it', () => {
    const serif = usage.get('noto serif') ?? [];
    expect(serif.map((u) => u.templateName)).toEqual(['Serif note']);
    const defaults = [...usage.entries()].filter(([family]) => family !== 'brand sans' && family !== 'noto serif');
    expect(defaults).toHaveLength(1);
    expect(defaults[0][1].map((u) => [u.templateName, u.versions.map((v) => v.versionNumber)])).toEqual([
      ['Invoice', [1, 2]],
      ['Serif note', [1]],
    ]);
  });

  it('a version whose DSL cannot be read uses no family', () => {
    expect([...usage.values()].flat().some((u) => u.templateId === 't4')).toBe(false);
  });
});
