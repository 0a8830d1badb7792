import { DomainError, Environment, ErrorCode, type CustomFontRef } from '@docrender/contracts';
import type { RenderableTemplate } from './render-target';
import { RenderTargetResolver, STATELESS_DOCUMENT_NAME, UnreadableTemplateError, type RenderableTemplates } from './render-target';

const ORG = 'org-1';
const scope = { organisationId: ORG, environment: Environment.Production };
const FONTS: CustomFontRef[] = [{ family: 'Inter', weight: 400, style: 'normal', blobKey: 'organisations/org-1/fonts/inter.woff2', format: 'woff2' }];

/** The template port: one template with versions 1 (published) and 2 (draft), as findRenderable reads them. */
class FakeTemplates implements RenderableTemplates {
  readonly asked: (number | null)[] = [];
  versions = new Map<number, { templateJson: string; translations: string | null; published: boolean }>([
    [1, { templateJson: '{"body":[]}', translations: '{"languages":{"en":{},"de-CH":{}}}', published: true }],
    [2, { templateJson: '{"body":[{"type":"text"}]}', translations: null, published: false }],
  ]);

  async findRenderable(organisationId: string, templateId: string, versionNumber: number | null): Promise<RenderableTemplate | null> {
    this.asked.push(versionNumber);
    if (organisationId !== ORG || templateId !== 'template-1') return null;
    const number = versionNumber ?? Math.max(0, ...[...this.versions].filter(([, v]) => v.published).map(([n]) => n));
    const version = this.versions.get(number);
    return {
      template: { id: 'template-1', name: 'Invoice', documentNameTemplate: 'invoice-{{number}}' },
      version: version === undefined ? null : { versionNumber: number, templateJson: version.templateJson, translations: version.translations, documentNameTemplate: null },
      customFonts: FONTS,
    };
  }
}

const fonts = { listCustomFontRefs: async () => FONTS };

describe('the render target, resolved once for the sync render and the job worker (spec 4.2, 4.5)', () => {
  let templates: FakeTemplates;
  let resolver: RenderTargetResolver;
  beforeEach(() => {
    templates = new FakeTemplates();
    resolver = new RenderTargetResolver(templates, fonts);
  });

  it('4.2: no version renders the latest published one, with the template name as fallback and the fonts of the same read', async () => {
    const target = await resolver.forStoredTemplate(scope, 'template-1', null, { requested: null });
    expect(target).toEqual({
      ...scope,
      template: { body: [] },
      translations: { languages: { en: {}, 'de-CH': {} } },
      language: null,
      documentNameTemplate: 'invoice-{{number}}',
      fallbackDocumentName: 'Invoice',
      customFonts: FONTS,
      source: { templateId: 'template-1', versionNumber: 1 },
    });
  });

  it('4.2: a draft is addressed by its number', async () => {
    expect((await resolver.forStoredTemplate(scope, 'template-1', 2, { requested: null })).source).toEqual({ templateId: 'template-1', versionNumber: 2 });
  });

  it.each([
    ['another organisation’s or an unknown template', 'template-2', null, ErrorCode.TemplateNotFound],
    ['an unknown version', 'template-1', 7, ErrorCode.VersionNotFound],
    ['a version number no integer column holds', 'template-1', 2 ** 31, ErrorCode.VersionNotFound],
  ] as const)('4.2: %s is a 404', async (_case, templateId, version, code) => {
    await expect(resolver.forStoredTemplate(scope, templateId, version, { requested: null })).rejects.toMatchObject({ code });
  });

  it('4.2: a template with nothing published and no version asked for is 404 NoPublishedVersion', async () => {
    templates.versions.delete(1);
    await expect(resolver.forStoredTemplate(scope, 'template-1', null, { requested: null })).rejects.toMatchObject({ code: ErrorCode.NoPublishedVersion });
  });

  it('a version number out of range is never sent to PostgreSQL as such (0 finds nothing)', async () => {
    await resolver.forStoredTemplate(scope, 'template-1', -3, { requested: null }).catch(() => undefined);
    expect(templates.asked).toEqual([0]);
  });

  it('4.2 language: a requested language takes the version’s spelling; one it does not define is 400 ValidationError', async () => {
    expect((await resolver.forStoredTemplate(scope, 'template-1', 1, { requested: 'DE-ch' })).language).toBe('de-CH');
    const refused = resolver.forStoredTemplate(scope, 'template-1', 1, { requested: 'fr' });
    await expect(refused).rejects.toBeInstanceOf(DomainError);
    await expect(resolver.forStoredTemplate(scope, 'template-1', 1, { requested: 'fr' })).rejects.toMatchObject({
      code: ErrorCode.ValidationError,
      message: 'language "fr" is not defined on version 1 of template template-1: it defines de-CH, en',
    });
  });

  it('3.1: a job renders with the language matched when it was accepted, not matched again', async () => {
    expect((await resolver.forStoredTemplate(scope, 'template-1', 2, { matched: 'de-CH' })).language).toBe('de-CH');
  });

  it('a stored template that is not JSON cannot be rendered (the job worker fails the job with this reason)', async () => {
    templates.versions.set(3, { templateJson: '{"body":', translations: null, published: false });
    const unreadable = resolver.forStoredTemplate(scope, 'template-1', 3, { requested: null });
    await expect(unreadable).rejects.toBeInstanceOf(UnreadableTemplateError);
    await expect(resolver.forStoredTemplate(scope, 'template-1', 3, { requested: null })).rejects.toThrow(/^the template DSL of the template version is not valid JSON: /);
  });

  it('the parsed template of a version is shared by every render of it (parsed once)', async () => {
    const first = await resolver.forStoredTemplate(scope, 'template-1', 1, { requested: null });
    const second = await resolver.forStoredTemplate(scope, 'template-1', 1, { requested: null });
    expect(second.template).toBe(first.template);
  });

  it('4.3: a stateless render has no source, the fallback name "document" and the organisation’s fonts', async () => {
    const target = await resolver.forStatelessTemplate(scope, { body: [] }, null, 'en');
    expect(target).toMatchObject({ source: null, fallbackDocumentName: STATELESS_DOCUMENT_NAME, documentNameTemplate: null, language: 'en', customFonts: FONTS });
    expect(STATELESS_DOCUMENT_NAME).toBe('document');
  });
});
