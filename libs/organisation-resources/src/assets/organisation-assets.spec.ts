import { MemoryBlobStore } from '@docrender/storage';
import { assetNameProblem, InvalidAssetError, organisationAssetKey, storeOrganisationAsset } from './organisation-assets';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('organisation assets (issue 21 item 6)', () => {
  it('issue 21 item 6: asset names are what the DSL accepts after asset: (no empty, . or .. segments)', () => {
    for (const name of ['logo', 'brand/logo.png', 'backgrounds/a4-landscape_v2.svg']) expect(assetNameProblem(name)).toBeNull();
    for (const name of ['', '/logo', '.hidden', 'a//b', 'a/./b', 'a/../b', 'logo png', 'ü', 'x'.repeat(201)]) expect(assetNameProblem(name)).not.toBeNull();
  });

  it('issue 21 item 6: an image is stored under the organisation with its sniffed type; anything else is refused', async () => {
    const store = new MemoryBlobStore();
    expect(await storeOrganisationAsset(store, 'org-1', 'brand/logo', PNG)).toEqual({
      organisationId: 'org-1',
      name: 'brand/logo',
      reference: 'asset:brand/logo',
      contentType: 'image/png',
      bytes: PNG.length,
    });
    expect(await store.get(organisationAssetKey('org-1', 'brand/logo'))).toEqual(PNG);
    await expect(storeOrganisationAsset(store, 'org-1', 'notes', Buffer.from('%PDF-1.7'))).rejects.toThrow(InvalidAssetError);
    await expect(storeOrganisationAsset(store, 'org-1', 'empty', Buffer.alloc(0))).rejects.toThrow('empty');
    await expect(storeOrganisationAsset(store, 'org-1', 'a/../x', PNG)).rejects.toThrow("'.' or '..'");
  });
});
