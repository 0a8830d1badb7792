import { Environment, FieldKind, FilterOperator, LISTINGS, OPERATORS_OF_KIND, type FilterableField, type ListingName } from '@docrender/contracts';
import { FilesystemBlobStore } from '@docrender/storage';
import { client, createDocument, createTenant, type ErrorBody, type Tenant } from './gateway-fixtures';
import { matchesFilter, type ListingValue } from '../src/listing/in-memory-listing';
import { gatewayResources, gatewaysOnOwnResources, type GatewayProcess } from './gateway-process';

/** A seeded record as the oracle sees it: its id and the value of each listing field. */
type Row = { id: string; values: Record<string, ListingValue> };

const day = (n: number, hour = 9) => new Date(Date.UTC(2026, 2, n, hour, 0, 0, 123));

/** A value for the filter taken from the data (the middle one, so comparisons split the set). */
function targetFor(rows: Row[], field: string, definition: FilterableField, op: FilterOperator): string {
  const values = rows.map((r) => r.values[field]).filter((v): v is Exclude<ListingValue, null> => v !== null);
  const sorted = [...values].sort((a, b) => (a instanceof Date && b instanceof Date ? a.getTime() - b.getTime() : a < b ? -1 : a > b ? 1 : 0));
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (middle instanceof Date) return middle.toISOString();
  if (op === FilterOperator.Contains) return String(middle).slice(1, 3).toUpperCase();
  if (definition.kind === FieldKind.Enum && definition.enumValues) return definition.enumValues[0];
  return String(middle);
}

const encode = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('4.1 shared listing contract over HTTP and SQL (e2e, gateway process)', () => {
  const own = gatewaysOnOwnResources(() => gatewayResources('listing'));
  let gateway: GatewayProcess;
  let tenant: Tenant;
  const rows: Record<'templates' | 'templateVersions' | 'documents', Row[]> = { templates: [], templateVersions: [], documents: [] };
  let versionedTemplateId: string;

  beforeAll(async () => {
    const { db, blobDir } = own.resources;
    const blobs = await FilesystemBlobStore.open(blobDir);
    tenant = await createTenant(db.database, 'Listing Org');
    const other = await createTenant(db.database, 'Other Org');
    const projects = [
      await db.database.projects.create({ organisationId: tenant.organisationId, name: 'P1' }),
      await db.database.projects.create({ organisationId: tenant.organisationId, name: 'P2' }),
    ];
    const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
    for (const [i, name] of names.entries()) {
      const created = await db.database.templates.create(
        { organisationId: tenant.organisationId, projectId: i % 3 === 2 ? null : projects[i % 2].id, name: `${name} template`, documentNameTemplate: null, updatedBy: 'u' },
        day(1 + i),
      );
      // updatedAt differs from createdAt and orders differently.
      await db.database.templates.update(tenant.organisationId, created.id, {}, 'u', day(20 - i * 2, 15));
    }
    await db.database.templates.create({ organisationId: other.organisationId, projectId: null, name: 'alpha elsewhere', documentNameTemplate: null, updatedBy: 'u' });
    const templateIds = ((await db.dataSource.query(`SELECT id FROM templates WHERE organisation_id = $1 ORDER BY name`, [tenant.organisationId])) as { id: string }[]).map(
      (t) => t.id,
    );

    // Adding versions changes the template's updatedAt: the template rows are read after this.
    versionedTemplateId = templateIds[0];
    for (let n = 1; n <= 6; n++) {
      await db.database.templateVersions.addVersion(
        versionedTemplateId,
        { templateJson: '{}', sampleData: '{"data":{},"i18n":{}}', translations: null, documentNameTemplate: null },
        { author: 'u', publish: n % 2 === 1, now: day(n * 2) },
      );
      if (n % 3 === 0) await db.database.templateVersions.updateDocumentNameTemplate(versionedTemplateId, n, `v${n}`, day(25 - n));
    }
    for (const v of await db.database.templateVersions.listByTemplate(versionedTemplateId)) {
      rows.templateVersions.push({ id: v.id, values: { versionNumber: v.versionNumber, publishedAt: v.publishedAt, createdAt: v.createdAt, updatedAt: v.updatedAt } });
    }

    for (const id of templateIds) {
      const r = await db.database.templates.findById(tenant.organisationId, id);
      if (!r) throw new Error('seeded template vanished');
      rows.templates.push({ id: r.id, values: { name: r.name, 'project.guid': r.projectId, createdAt: r.createdAt, updatedAt: r.updatedAt } });
    }

    const documentNames = ['alpha invoice', 'bravo receipt', 'charlie invoice', 'delta letter', 'echo invoice', 'foxtrot receipt', 'golf letter', 'hotel invoice', 'india memo'];
    for (const [i, documentName] of documentNames.entries()) {
      const d = await createDocument(db.database, blobs, tenant, {
        templateId: rows.templates[i % 3].id,
        documentName,
        versionNumber: 1 + (i % 4),
        fileSizeBytes: 1000 + ((i * 7) % 9) * 250,
        pageCount: 1 + ((i * 5) % 6),
        renderDurationMs: 50 + ((i * 3) % 9) * 10,
        renderedAt: day(1 + ((i * 4) % 9)),
        createdAt: day(1 + i),
        environment: i % 3 === 0 ? Environment.Production : Environment.Test,
        language: [null, 'de', 'en'][i % 3],
      });
      rows.documents.push({
        id: d.id,
        values: {
          documentName: d.documentName,
          'template.guid': d.templateId,
          versionNumber: d.versionNumber,
          fileSizeBytes: d.fileSizeBytes,
          pageCount: d.pageCount,
          renderDuration: d.renderDurationMs,
          renderedAt: d.renderedAt,
          createdAt: d.createdAt,
          updatedAt: d.updatedAt,
          environment: d.environment,
          language: d.language,
        },
      });
    }
    await createDocument(db.database, blobs, other, { templateId: (await db.database.templates.findByName(other.organisationId, null, 'alpha elsewhere'))[0].id, documentName: 'alpha foreign' });
    gateway = await own.startGateway({ DB_POOL_SIZE: '4' });
  });

  const pathOf = (listing: 'templates' | 'templateVersions' | 'documents') =>
    listing === 'templates' ? '/v1/templates' : listing === 'documents' ? '/v1/documents' : `/v1/templates/${versionedTemplateId}/versions`;
  const list = async (listing: 'templates' | 'templateVersions' | 'documents', params: Record<string, string>) => {
    const response = await client(gateway.baseUrl, tenant.testKey).get(`${pathOf(listing)}?${encode(params)}`);
    return { status: response.status, page: response.json<{ items: { id: string }[]; total: number; skip: number; take: number }>(), error: response.json<ErrorBody>() };
  };

  const table = (['templates', 'templateVersions', 'documents'] as const).flatMap((listing) =>
    Object.entries(LISTINGS[listing].filterable as Record<string, FilterableField>).flatMap(([field, definition]) =>
      OPERATORS_OF_KIND[definition.kind].map((op) => ({ listing, field, definition, op })),
    ),
  );

  it.each(table)('4.1: $listing filter $field $op keeps exactly the matching records', async ({ listing, field, definition, op }) => {
    const target = targetFor(rows[listing], field, definition, op);
    const expected = rows[listing].filter((r) => matchesFilter(r.values[field], { field, op, value: target })).map((r) => r.id).sort();
    const { status, page } = await list(listing, { take: '200', 'filters[0].field': field, 'filters[0].op': op, 'filters[0].value': target });
    expect(status).toBe(200);
    expect({ target, ids: page.items.map((i) => i.id).sort(), total: page.total }).toEqual({ target, ids: expected, total: expected.length });
    // The table is only meaningful if the filters actually discriminate.
    if (op !== FilterOperator.Neq || field !== 'environment') expect(expected.length).toBeLessThan(rows[listing].length);
  });

  it.each(
    (['templates', 'templateVersions', 'documents'] as const).flatMap((listing) =>
      Object.keys(LISTINGS[listing].filterable).flatMap((field) =>
        Object.values(FilterOperator)
          .filter((op) => !OPERATORS_OF_KIND[(LISTINGS[listing].filterable as Record<string, FilterableField>)[field].kind].includes(op))
          .map((op) => ({ listing, field, op })),
      ),
    ),
  )('4.1: $listing refuses $op on $field with 400 ValidationError naming it', async ({ listing, field, op }) => {
    const { status, error } = await list(listing, { 'filters[0].field': field, 'filters[0].op': op, 'filters[0].value': '1' });
    expect(status).toBe(400);
    expect(error.error.code).toBe('ValidationError');
    expect(error.error.message).toContain(field);
  });

  it.each([
    ['templates', 'projectId'],
    ['templateVersions', 'templateId'],
    ['documents', 'templateId'],
    ['documents', 'renderDuration'],
  ] as const)('4.1: %s cannot be filtered on %s: 400 ValidationError naming it', async (listing, field) => {
    const { status, error } = await list(listing, { 'filters[0].field': field, 'filters[0].value': '1' });
    expect(status).toBe(400);
    expect(error.error.message).toContain(`'${field}'`);
  });

  it.each((['templates', 'templateVersions', 'documents'] as const).flatMap((listing) => LISTINGS[listing].sortable.flatMap((sortBy) => ['asc', 'desc'].map((dir) => ({ listing, sortBy, dir })))))(
    '4.1: $listing sorts by $sortBy $dir',
    async ({ listing, sortBy, dir }) => {
      const { page } = await list(listing, { take: '200', sortBy, sortDirection: dir });
      const values = page.items.map((item) => rows[listing].find((r) => r.id === item.id)?.values[sortBy] ?? null);
      const numeric = values.map((v) => (v instanceof Date ? v.getTime() : v));
      const nonNull = numeric.filter((v) => v !== null);
      // Nulls last in both directions, then ordered.
      expect(numeric.slice(0, nonNull.length)).toEqual(nonNull);
      const ordered = [...nonNull].sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0));
      expect(nonNull).toEqual(dir === 'asc' ? ordered : ordered.reverse());
      expect(page.total).toBe(rows[listing].length);
    },
  );

  it('4.1: the default sort is the first sortable field ascending; an unknown sortBy silently falls back to it', async () => {
    const byDefault = (await list('documents', { take: '200' })).page.items.map((i) => i.id);
    const fallback = (await list('documents', { take: '200', sortBy: 'colour' })).page.items.map((i) => i.id);
    const byRenderedAt = [...rows.documents].sort((a, b) => (a.values.renderedAt as Date).getTime() - (b.values.renderedAt as Date).getTime() || (a.id < b.id ? -1 : 1));
    expect(byDefault).toEqual(byRenderedAt.map((r) => r.id));
    expect(fallback).toEqual(byDefault);
  });

  it('4.1: total is independent of skip/take; paging walks the whole set without repeats', async () => {
    const seen: string[] = [];
    for (let skip = 0; ; ) {
      const { page } = await list('documents', { skip: String(skip), take: '2', sortBy: 'pageCount' });
      expect(page.total).toBe(rows.documents.length);
      expect({ skip: page.skip, take: page.take }).toEqual({ skip, take: 2 });
      seen.push(...page.items.map((i) => i.id));
      skip += page.items.length;
      if (skip >= page.total) break;
    }
    expect(seen.sort()).toEqual(rows.documents.map((r) => r.id).sort());
    const beyond = await list('documents', { skip: '50' });
    expect(beyond.page).toMatchObject({ items: [], total: rows.documents.length, skip: 50 });
  });

  it('4.1: take is clamped to 1..200 and the applied value echoed; defaults are skip 0, take 25', async () => {
    expect((await list('documents', {})).page).toMatchObject({ skip: 0, take: 25 });
    expect((await list('documents', { take: '1000' })).page).toMatchObject({ take: 200 });
    const one = await list('documents', { take: '0' });
    expect(one.page).toMatchObject({ take: 1, total: rows.documents.length });
    expect(one.page.items).toHaveLength(1);
  });

  it('4.1: search is a case-insensitive contains-match over documentName (documents) and name (templates)', async () => {
    const documents = await list('documents', { take: '200', search: 'INVOICE' });
    expect(documents.page.items.map((i) => i.id).sort()).toEqual(rows.documents.filter((r) => String(r.values.documentName).includes('invoice')).map((r) => r.id).sort());
    const templates = await list('templates', { search: 'Alph' });
    expect(templates.page.items.map((i) => i.id)).toEqual(rows.templates.filter((r) => String(r.values.name).startsWith('alpha')).map((r) => r.id));
    const percent = await list('documents', { search: '%' });
    expect(percent.page.total).toBe(0);
  });

  it('4.1: filters combine with AND, together with search', async () => {
    const { page } = await list('documents', {
      take: '200',
      search: 'invoice',
      'filters[0].field': 'environment',
      'filters[0].op': 'neq',
      'filters[0].value': 'production',
      'filters[1].field': 'pageCount',
      'filters[1].op': 'gte',
      'filters[1].value': '2',
    });
    const expected = rows.documents.filter(
      (r) => String(r.values.documentName).includes('invoice') && r.values.environment !== 'production' && (r.values.pageCount as number) >= 2,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(page.items.map((i) => i.id).sort()).toEqual(expected.map((r) => r.id).sort());
  });

  it('4.1: a fixed upper bound on renderedAt keeps the set stable while new records arrive', async () => {
    const bound = day(5).toISOString();
    const before = await list('documents', { take: '200', 'filters[0].field': 'renderedAt', 'filters[0].op': 'lte', 'filters[0].value': bound });
    await createDocument(own.db.database, await FilesystemBlobStore.open(own.resources.blobDir), tenant, { templateId: rows.templates[0].id, documentName: 'late arrival' });
    const after = await list('documents', { take: '200', 'filters[0].field': 'renderedAt', 'filters[0].op': 'lte', 'filters[0].value': bound });
    expect(after.page.items.map((i) => i.id)).toEqual(before.page.items.map((i) => i.id));
  });

  it('4.1: datetime values accept any ISO 8601 offset', async () => {
    const target = day(4);
    const shifted = new Date(target.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const { page } = await list('documents', { take: '200', 'filters[0].field': 'renderedAt', 'filters[0].op': 'eq', 'filters[0].value': shifted });
    expect(page.items.map((i) => i.id).sort()).toEqual(rows.documents.filter((r) => (r.values.renderedAt as Date).getTime() === target.getTime()).map((r) => r.id).sort());
    expect(page.items.length).toBeGreaterThan(0);
  });

  it('7.2: a bad filter value is 400 ValidationError; a non-integer take is 422 BindingError', async () => {
    const bad = await list('documents', { 'filters[0].field': 'renderedAt', 'filters[0].op': 'gt', 'filters[0].value': 'last tuesday' });
    expect({ status: bad.status, code: bad.error.error.code }).toEqual({ status: 400, code: 'ValidationError' });
    const take = await list('documents', { take: 'many' });
    expect({ status: take.status, code: take.error.error.code }).toEqual({ status: 422, code: 'BindingError' });
  });
});

// The fonts listing is checked in fonts.e2e-spec.ts (it is not one table).
export type { ListingName };
