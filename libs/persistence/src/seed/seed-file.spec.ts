import { parseSeedFile } from './seed-file';

describe('seed file: organisation assets (issue 21 item 6)', () => {
  const withAssets = (assets: unknown) => ({ organisations: [{ name: 'Acme', assets }] });

  it('issue 21 item 6: assets are a list of { name, file }', () => {
    expect(parseSeedFile(withAssets([{ name: 'brand/logo', file: 'logo.png' }])).organisations[0].assets).toEqual([{ name: 'brand/logo', file: 'logo.png' }]);
    expect(parseSeedFile({ organisations: [{ name: 'Acme' }] }).organisations[0].assets).toEqual([]);
  });

  it.each([
    [[{ name: 'logo' }], 'organisations[0].assets[0].file: must be a non-empty string'],
    [[{ name: 'brand/../logo', file: 'a.png' }], "organisations[0].assets[0].name: must not have an empty, '.' or '..' path segment"],
    [[{ name: 'logo', file: 'a.png', type: 'png' }], 'organisations[0].assets[0].type: unknown field (allowed: name, file)'],
    [[{ name: 'logo', file: 'a.png' }, { name: 'logo', file: 'b.png' }], "organisations[0].assets[1].name: 'logo' is listed twice"],
  ])('issue 21 item 6: a bad asset entry names its path (%j)', (assets, message) => {
    expect(() => parseSeedFile(withAssets(assets))).toThrow(message);
  });
});
