import { ErrorCode } from '@docrender/contracts';
import { client, createTenant, type ErrorBody, type Tenant } from './gateway-fixtures';
import { gatewayResources, gatewaysOnOwnResources, type GatewayProcess } from './gateway-process';

type FontPage = { items: { family: string; source: string; variants: { weight: number; style: string }[] }[]; total: number; skip: number; take: number };

describe('4.18 fonts (e2e, gateway process)', () => {
  const own = gatewaysOnOwnResources(() => gatewayResources('fonts'));
  let gateway: GatewayProcess;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    const { db } = own.resources;
    a = await createTenant(db.database, 'Fonts A');
    b = await createTenant(db.database, 'Fonts B');
    const file = (weight: number, style: 'normal' | 'italic') => ({ weight, style, format: 'woff2' as const, blobKey: `fonts/${weight}-${style}.woff2`, fileSizeBytes: 100 });
    await db.database.fonts.addFiles(a.organisationId, 'Acme Sans', [file(700, 'normal'), file(400, 'italic'), file(400, 'normal')]);
    await db.database.fonts.addFiles(a.organisationId, 'Retired', [file(400, 'normal')]);
    await db.database.fonts.deleteFamily(a.organisationId, 'Retired');
    await db.database.fonts.addFiles(b.organisationId, 'Theirs', [file(400, 'normal')]);
    gateway = await own.startGateway();
  });

  const fonts = async (query = '', key = a.testKey) => {
    const response = await client(gateway.baseUrl, key).get(`/v1/fonts${query}`);
    return { status: response.status, page: response.json<FontPage>(), error: response.json<ErrorBody>(), headers: response.headers };
  };

  it('4.18: built-in families and the organisation’s live custom families, with their variants, sorted by family', async () => {
    const { status, page, headers } = await fonts();
    expect(status).toBe(200);
    expect(page.items.map((f) => [f.family, f.source])).toEqual([
      ['Acme Sans', 'custom'],
      ['Inter', 'builtin'],
      ['Noto Serif', 'builtin'],
      ['Roboto Mono', 'builtin'],
    ]);
    expect(page).toMatchObject({ total: 4, skip: 0, take: 25 });
    expect(page.items[0].variants).toEqual([
      { weight: 400, style: 'normal' },
      { weight: 400, style: 'italic' },
      { weight: 700, style: 'normal' },
    ]);
    const inter = page.items[1].variants;
    expect(inter).toContainEqual({ weight: 400, style: 'normal' });
    expect(inter).toContainEqual({ weight: 700, style: 'normal' });
    expect(headers.get('x-ratelimit-limit')).toBe('600');
  });

  it('4.18: the shared listing contract: source filter, family contains, search, sort and paging', async () => {
    expect((await fonts('?filters[0].field=source&filters[0].value=custom')).page.items.map((f) => f.family)).toEqual(['Acme Sans']);
    expect((await fonts('?filters[0].field=source&filters[0].op=neq&filters[0].value=custom')).page.total).toBe(3);
    expect((await fonts('?filters[0].field=family&filters[0].op=contains&filters[0].value=SERIF')).page.items.map((f) => f.family)).toEqual(['Noto Serif']);
    expect((await fonts('?filters[0].field=family&filters[0].value=Inter')).page.items.map((f) => f.family)).toEqual(['Inter']);
    expect((await fonts('?search=mono')).page.items.map((f) => f.family)).toEqual(['Roboto Mono']);
    expect((await fonts('?sortBy=source&sortDirection=desc')).page.items.map((f) => f.family)).toEqual(['Acme Sans', 'Roboto Mono', 'Noto Serif', 'Inter']);
    expect((await fonts('?skip=1&take=2')).page).toMatchObject({ total: 4, skip: 1, take: 2, items: [{ family: 'Inter' }, { family: 'Noto Serif' }] });
  });

  it('4.1: a filter on a field or with an operator fonts do not have is 400 ValidationError', async () => {
    const field = await fonts('?filters[0].field=weight&filters[0].value=400');
    expect({ status: field.status, code: field.error.error.code }).toEqual({ status: 400, code: ErrorCode.ValidationError });
    const op = await fonts('?filters[0].field=source&filters[0].op=contains&filters[0].value=c');
    expect({ status: op.status, code: op.error.error.code }).toEqual({ status: 400, code: ErrorCode.ValidationError });
  });

  it('1.8: another organisation’s custom families are not listed', async () => {
    expect((await fonts('', b.prodKey)).page.items.map((f) => f.family)).toEqual(['Inter', 'Noto Serif', 'Roboto Mono', 'Theirs']);
  });

  it('5.3: 401 without a valid key; 401 NotAuthenticated for a deleted organisation', async () => {
    const none = await client(gateway.baseUrl, null).get('/v1/fonts');
    expect({ status: none.status, code: none.json<ErrorBody>().error.code }).toEqual({ status: 401, code: ErrorCode.Unauthorized });
    const gone = await createTenant(own.db.database, 'Gone');
    await own.db.database.organisations.markDeleted(gone.organisationId);
    const deleted = await fonts('', gone.testKey);
    expect({ status: deleted.status, code: deleted.error.error.code }).toEqual({ status: 401, code: ErrorCode.NotAuthenticated });
  });
});
