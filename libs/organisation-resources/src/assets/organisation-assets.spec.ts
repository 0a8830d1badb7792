import { MemoryBlobStore } from '@docrender/storage';
import { assetNameProblem, InvalidAssetError, listOrganisationAssets, organisationAssetKey, removeOrganisationAsset, storeOrganisationAsset } from './organisation-assets';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('organisation assets (issue 21 item 6)', () => {
  it('issue 21 item 6: asset names are what the DSL accepts after asset: (no empty, . or .. segments)', () => {
    for (const name of ['logo', 'brand/logo.png', 'backgrounds/a4-landscape_v2.svg']) expect(assetNameProblem(name)).toBeNull();
    for (const name of ['', '/logo', '.hidden', 'a//b', 'a/./b', 'a/../b', 'logo png', 'ü', 'x'.repeat(201)]) expect(assetNameProblem(name)).not.toBeNull();
  });

  it('issue 21 item 6, issue 35 item 4: an image or a PDF is stored under the organisation with its sniffed type; anything else is refused', async () => {
    const store = new MemoryBlobStore();
    expect(await storeOrganisationAsset(store, 'org-1', 'brand/logo', PNG)).toEqual({
      organisationId: 'org-1',
      name: 'brand/logo',
      reference: 'asset:brand/logo',
      contentType: 'image/png',
      bytes: PNG.length,
    });
    expect(await store.get(organisationAssetKey('org-1', 'brand/logo'))).toEqual(PNG);
    expect(await storeOrganisationAsset(store, 'org-1', 'legal/terms.pdf', Buffer.from('%PDF-1.7 terms'))).toMatchObject({ contentType: 'application/pdf', reference: 'asset:legal/terms.pdf' });
    await expect(storeOrganisationAsset(store, 'org-1', 'notes', Buffer.from('plain text, not %PDF-'))).rejects.toThrow(InvalidAssetError);
    await expect(storeOrganisationAsset(store, 'org-1', 'page.html', Buffer.from('<html><svg></svg></html>'))).rejects.toThrow(InvalidAssetError);
    await expect(storeOrganisationAsset(store, 'org-1', 'empty', Buffer.alloc(0))).rejects.toThrow('empty');
    await expect(storeOrganisationAsset(store, 'org-1', 'a/../x', PNG)).rejects.toThrow("'.' or '..'");
  });

  it("issue 35 item 4: lists an organisation's assets by name, never another's, and removes one", async () => {
    const store = new MemoryBlobStore();
    await storeOrganisationAsset(store, 'org-1', 'brand/logo', PNG);
    await storeOrganisationAsset(store, 'org-1', 'legal/terms.pdf', Buffer.from('%PDF-1.7'));
    await storeOrganisationAsset(store, 'org-2', 'other', PNG);
    expect(await listOrganisationAssets(store, 'org-1', { limit: 10 })).toEqual({
      items: [
        { name: 'brand/logo', reference: 'asset:brand/logo', contentType: 'image/png', bytes: PNG.length },
        { name: 'legal/terms.pdf', reference: 'asset:legal/terms.pdf', contentType: 'application/pdf', bytes: 8 },
      ],
      truncated: false,
    });
    expect(await removeOrganisationAsset(store, 'org-1', 'other')).toBe(false);
    expect(await removeOrganisationAsset(store, 'org-1', 'brand/logo')).toBe(true);
    expect((await listOrganisationAssets(store, 'org-1', { limit: 10 })).items.map((a) => a.name)).toEqual(['legal/terms.pdf']);
    expect((await listOrganisationAssets(store, 'org-2', { limit: 10 })).items.map((a) => a.name)).toEqual(['other']);
    await expect(removeOrganisationAsset(store, 'org-1', '../x')).rejects.toThrow(InvalidAssetError);
  });

  it('bounded cost: lists a page of assets by name after a given name, and says when more follow', async () => {
    const store = new MemoryBlobStore();
    for (const name of ['c.png', 'a.png', 'b/logo.png', 'd.png']) await storeOrganisationAsset(store, 'org-1', name, PNG);
    await storeOrganisationAsset(store, 'org-2', 'b0.png', PNG);
    const first = await listOrganisationAssets(store, 'org-1', { limit: 2 });
    expect(first).toMatchObject({ items: [{ name: 'a.png' }, { name: 'b/logo.png' }], truncated: true });
    expect(await listOrganisationAssets(store, 'org-1', { limit: 2, after: 'b/logo.png' })).toMatchObject({ items: [{ name: 'c.png' }, { name: 'd.png' }], truncated: false });
  });
});
