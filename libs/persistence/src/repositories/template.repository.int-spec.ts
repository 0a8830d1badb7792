import { suiteDatabase } from '../../test/suite-database';
import { provisionTestOrganisation } from '../../test/suite-fixtures';
import { RecordConflictError } from '../persistence.error';

const content = (n: number) => ({
  templateJson: JSON.stringify({ pages: [{ text: `v${n}` }] }),
  sampleData: JSON.stringify({ data: { n }, i18n: {} }),
  translations: null,
  documentNameTemplate: null,
});

describe('TemplateRepository and TemplateVersionRepository', () => {
  const db = suiteDatabase();
  let organisationId: string;
  let otherOrganisationId: string;

  beforeAll(async () => {
    organisationId = await provisionTestOrganisation(db.database, 'Templates Ltd');
    otherOrganisationId = await provisionTestOrganisation(db.database, 'Elsewhere Ltd');
  });

  it('2.2: a template reports its project, latest published version, version count and master template', async () => {
    const project = await db.database.projects.create({ organisationId, name: 'Billing' });
    const master = await db.database.templates.create({ organisationId, projectId: null, name: 'Master', documentNameTemplate: null, updatedBy: 'alice' });
    const template = await db.database.templates.create({
      organisationId,
      projectId: project.id,
      name: 'Invoice',
      documentNameTemplate: 'Invoice {{number}}',
      masterTemplateId: master.id,
      updatedBy: 'alice',
    });
    expect(await db.database.templates.findById(organisationId, template.id)).toMatchObject({
      projectName: 'Billing',
      latestVersionNumber: null,
      versionCount: 0,
      masterTemplateId: master.id,
      masterTemplateName: 'Master',
    });

    await db.database.templateVersions.addVersion(template.id, content(1), { author: 'bob', publish: true });
    await db.database.templateVersions.addVersion(template.id, content(2), { author: 'bob', publish: true });
    await db.database.templateVersions.addVersion(template.id, content(3), { author: 'bob', publish: false });
    expect(await db.database.templates.findById(organisationId, template.id)).toMatchObject({
      latestVersionNumber: 2,
      versionCount: 3,
      updatedBy: 'bob',
    });
    expect((await db.database.templateVersions.findLatestPublished(template.id))?.versionNumber).toBe(2);
  });

  it('1.8: a template of another organisation is not found', async () => {
    const template = await db.database.templates.create({ organisationId, projectId: null, name: 'Private', documentNameTemplate: null, updatedBy: 'a' });
    expect(await db.database.templates.findById(otherOrganisationId, template.id)).toBeNull();
    expect(await db.database.projects.findById(otherOrganisationId, template.id)).toBeNull();
  });

  it('4.2: findRenderable gives the latest published version or the numbered one (a draft too), within the organisation', async () => {
    const template = await db.database.templates.create({ organisationId, projectId: null, name: 'Renderable', documentNameTemplate: 'Doc {{n}}', updatedBy: 'a' });
    const none = await db.database.templates.findRenderable(organisationId, template.id, null);
    expect(none).toEqual({ template: { id: template.id, name: 'Renderable', documentNameTemplate: 'Doc {{n}}' }, version: null, customFonts: [] });
    await db.database.templateVersions.addVersion(template.id, content(1), { author: 'a', publish: true });
    const translated = { ...content(2), translations: '{"defaultLanguage":"en"}', documentNameTemplate: 'V2 {{n}}' };
    await db.database.templateVersions.addVersion(template.id, translated, { author: 'a', publish: true });
    await db.database.templateVersions.addVersion(template.id, content(3), { author: 'a', publish: false });
    expect((await db.database.templates.findRenderable(organisationId, template.id, null))?.version).toEqual({
      versionNumber: 2,
      templateJson: translated.templateJson,
      translations: translated.translations,
      documentNameTemplate: 'V2 {{n}}',
    });
    expect((await db.database.templates.findRenderable(organisationId, template.id, 3))?.version).toMatchObject({ versionNumber: 3, templateJson: content(3).templateJson });
    expect((await db.database.templates.findRenderable(organisationId, template.id, 1))?.version).toMatchObject({ versionNumber: 1, translations: null, documentNameTemplate: null });
    expect((await db.database.templates.findRenderable(organisationId, template.id, 4))?.version).toBeNull();
    expect(await db.database.templates.findRenderable(otherOrganisationId, template.id, null)).toBeNull();
    expect(await db.database.templates.findRenderable(otherOrganisationId, template.id, 1)).toBeNull();
  });

  it('4.18: findRenderable brings the organisation’s live custom fonts, as listCustomFontRefs gives them', async () => {
    const owner = await provisionTestOrganisation(db.database, 'Fonts Ltd');
    const template = await db.database.templates.create({ organisationId: owner, projectId: null, name: 'Fancy', documentNameTemplate: null, updatedBy: 'a' });
    const file = (weight: number, style: 'normal' | 'italic') => ({ weight, style, format: 'woff2' as const, blobKey: `fonts/${weight}${style}.woff2`, fileSizeBytes: 10 });
    await db.database.fonts.addFiles(owner, 'Zeta Serif', [file(700, 'normal')]);
    await db.database.fonts.addFiles(owner, 'alpha Sans', [file(700, 'italic'), file(400, 'normal')]);
    await db.database.fonts.addFiles(owner, 'Gone Mono', [file(400, 'normal')]);
    await db.database.fonts.deleteFamily(owner, 'Gone Mono');
    const expected = [
      { family: 'alpha Sans', weight: 400, style: 'normal', blobKey: 'fonts/400normal.woff2', format: 'woff2' },
      { family: 'alpha Sans', weight: 700, style: 'italic', blobKey: 'fonts/700italic.woff2', format: 'woff2' },
      { family: 'Zeta Serif', weight: 700, style: 'normal', blobKey: 'fonts/700normal.woff2', format: 'woff2' },
    ];
    expect(await db.database.fonts.listCustomFontRefs(owner)).toEqual(expected);
    expect((await db.database.templates.findRenderable(owner, template.id, null))?.customFonts).toEqual(expected);
  });

  it('concurrent addVersion calls get distinct consecutive numbers', async () => {
    const template = await db.database.templates.create({ organisationId, projectId: null, name: 'Busy', documentNameTemplate: null, updatedBy: 'a' });
    const versions = await Promise.all(
      Array.from({ length: 8 }, (_, i) => db.database.templateVersions.addVersion(template.id, content(i), { author: 'a', publish: false })),
    );
    expect(versions.map((v) => v.versionNumber).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('3.4: a draft has no publishedAt/publishedBy; publishing sets both and is idempotent; nothing published gives no latest', async () => {
    const template = await db.database.templates.create({ organisationId, projectId: null, name: 'Drafty', documentNameTemplate: null, updatedBy: 'a' });
    const draft = await db.database.templateVersions.addVersion(template.id, content(1), { author: 'a', publish: false });
    expect(draft).toMatchObject({ versionNumber: 1, publishedAt: null, publishedBy: null });
    expect(await db.database.templateVersions.findLatestPublished(template.id)).toBeNull();
    const at = new Date('2026-11-21T09:00:00Z');
    const published = await db.database.templateVersions.publish(template.id, 1, 'carol', at);
    expect(published).toMatchObject({ publishedAt: at, publishedBy: 'carol' });
    const again = await db.database.templateVersions.publish(template.id, 1, 'dave', new Date());
    expect(again).toMatchObject({ publishedAt: at, publishedBy: 'carol' });
    await expect(db.database.templateVersions.publish(template.id, 9, 'dave')).rejects.toThrow(/not found/);
  });

  it('4.11: the document-name template of a version can be set and cleared; published content cannot change', async () => {
    const template = await db.database.templates.create({ organisationId, projectId: null, name: 'Named', documentNameTemplate: null, updatedBy: 'a' });
    await db.database.templateVersions.addVersion(template.id, content(1), { author: 'a', publish: true });
    expect((await db.database.templateVersions.updateDocumentNameTemplate(template.id, 1, 'Doc {{n}}'))?.documentNameTemplate).toBe('Doc {{n}}');
    expect((await db.database.templateVersions.updateDocumentNameTemplate(template.id, 1, null))?.documentNameTemplate).toBeNull();
    expect(await db.database.templateVersions.updateDocumentNameTemplate(template.id, 2, 'x')).toBeNull();
    await expect(db.database.templateVersions.updateDraft(template.id, 1, content(5))).rejects.toThrow(RecordConflictError);
  });

  it('a draft can be rewritten, which forgets its preview image', async () => {
    const template = await db.database.templates.create({ organisationId, projectId: null, name: 'Preview', documentNameTemplate: null, updatedBy: 'a' });
    await db.database.templateVersions.addVersion(template.id, content(1), { author: 'a', publish: false });
    expect(await db.database.templateVersions.setPreviewImage(template.id, 1, 'previews/x.png')).toBe(true);
    expect((await db.database.templateVersions.findByNumber(template.id, 1))?.previewImageBlobKey).toBe('previews/x.png');
    const rewritten = await db.database.templateVersions.updateDraft(template.id, 1, content(2));
    expect(rewritten).toMatchObject({ templateJson: content(2).templateJson, previewImageBlobKey: null });
  });
});
