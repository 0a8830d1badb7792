import { MemoryBlobStore } from '@docrender/storage';
import { registerFontFamily, type FontCatalogue, type FontFamilyRecord, type NewFontFile } from './font-family-registration';

const WOFF2 = Buffer.from('wOF2 a font');
const ORG = '6f1c0b7e-0000-4000-8000-000000000001';

/** A catalogue in memory: one family, variants replaced by weight and style, as FontRepository.addFiles does. */
class MemoryCatalogue implements FontCatalogue {
  family: FontFamilyRecord | null = null;
  failNext = false;

  async addFiles(organisationId: string, family: string, files: readonly NewFontFile[]): Promise<{ family: FontFamilyRecord; replacedBlobKeys: string[] }> {
    if (this.failNext) throw new Error('the database went away');
    const current = this.family ?? { id: 'f1', organisationId, family, createdAt: new Date(0), files: [] };
    const replaced = current.files.filter((f) => files.some((n) => n.weight === f.weight && n.style === f.style));
    const kept = current.files.filter((f) => !replaced.includes(f));
    this.family = { ...current, files: [...kept, ...files.map((f, i) => ({ ...f, id: `file-${i}-${f.blobKey}` }))] };
    return { family: this.family, replacedBlobKeys: replaced.map((f) => f.blobKey) };
  }
}

describe('registering a custom font family (the spec’s fonts area, docs/template-dsl.md “Fonts”): the files first, then the rows', () => {
  it('stores each file under the organisation’s fonts prefix and records it with its size', async () => {
    const blobs = new MemoryBlobStore();
    const catalogue = new MemoryCatalogue();
    const family = await registerFontFamily(catalogue, blobs, { organisationId: ORG, family: 'Brand', files: [{ weight: 400, style: 'normal', format: 'woff2', bytes: WOFF2 }] });
    expect(family.files).toHaveLength(1);
    const [file] = family.files;
    expect(file.blobKey).toMatch(new RegExp(`^organisations/${ORG}/fonts/[0-9a-f-]+\\.woff2$`));
    expect(file.fileSizeBytes).toBe(WOFF2.length);
    expect(blobs.blobs.get(file.blobKey)).toEqual(WOFF2);
    expect(blobs.contentTypes.get(file.blobKey)).toBe('font/woff2');
  });

  it('a variant given again replaces the old file, whose blob is deleted', async () => {
    const blobs = new MemoryBlobStore();
    const catalogue = new MemoryCatalogue();
    const input = { organisationId: ORG, family: 'Brand', files: [{ weight: 700, style: 'italic' as const, format: 'woff2' as const, bytes: WOFF2 }] };
    const first = (await registerFontFamily(catalogue, blobs, input)).files[0].blobKey;
    const second = (await registerFontFamily(catalogue, blobs, input)).files[0].blobKey;
    expect(second).not.toBe(first);
    expect([...blobs.blobs.keys()]).toEqual([second]);
  });

  it('when the rows cannot be written, the blobs just stored are deleted again and the error is thrown', async () => {
    const blobs = new MemoryBlobStore();
    const catalogue = new MemoryCatalogue();
    catalogue.failNext = true;
    await expect(
      registerFontFamily(catalogue, blobs, { organisationId: ORG, family: 'Brand', files: [{ weight: 400, style: 'normal', format: 'woff2', bytes: WOFF2 }, { weight: 700, style: 'normal', format: 'woff2', bytes: WOFF2 }] }),
    ).rejects.toThrow('the database went away');
    expect(blobs.blobs.size).toBe(0);
  });
});
