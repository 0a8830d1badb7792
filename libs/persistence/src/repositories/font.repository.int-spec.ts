import { suiteDatabase } from '../../test/suite-database';
import { provisionTestOrganisation } from '../../test/suite-fixtures';

describe('FontRepository', () => {
  const db = suiteDatabase();
  let organisationId: string;

  beforeAll(async () => {
    organisationId = await provisionTestOrganisation(db.database, 'Fonts Ltd');
  });

  it('7.3 UnresolvedFont: a family gathers variants, a repeated variant replaces the old file, deletion hides the family', async () => {
    const regular = { weight: 400, style: 'normal' as const, format: 'woff2' as const, blobKey: 'fonts/a-400.woff2', fileSizeBytes: 10 };
    const first = await db.database.fonts.addFiles(organisationId, 'Acme Sans', [regular]);
    expect(first.replacedBlobKeys).toEqual([]);
    const second = await db.database.fonts.addFiles(organisationId, 'acme sans', [
      { weight: 700, style: 'italic', format: 'ttf', blobKey: 'fonts/a-700i.ttf', fileSizeBytes: 20 },
      { ...regular, blobKey: 'fonts/a-400-v2.woff2' },
    ]);
    expect(second.replacedBlobKeys).toEqual(['fonts/a-400.woff2']);
    expect(second.family.id).toBe(first.family.id);
    expect(second.family.family).toBe('Acme Sans');
    expect(await db.database.fonts.listCustomFontRefs(organisationId)).toEqual([
      { family: 'Acme Sans', weight: 400, style: 'normal', format: 'woff2', blobKey: 'fonts/a-400-v2.woff2' },
      { family: 'Acme Sans', weight: 700, style: 'italic', format: 'ttf', blobKey: 'fonts/a-700i.ttf' },
    ]);
    expect(await db.database.fonts.deleteFamily(organisationId, 'ACME SANS')).toBe(true);
    expect(await db.database.fonts.listLiveFamilies(organisationId)).toEqual([]);
    expect(await db.database.fonts.findLiveFamily(organisationId, 'Acme Sans')).toBeNull();
    const recreated = await db.database.fonts.addFiles(organisationId, 'Acme Sans', [regular]);
    expect(recreated.family.id).not.toBe(first.family.id);
  });
});
