import { api, type StoredDocument } from './api';
import { formatTime, h, showPage, tableRows } from './dom';

const PAGE = 25;

/** Usage and credit for the period (issue 35 item 4; the figures of spec 2.12's GET /v1/organisation/stats). */
export async function usagePage(main: HTMLElement): Promise<void> {
  const u = await api.usage();
  const row = (label: string, value: string | number, test: string) => h('tr', {}, h('th', {}, label), h('td', { 'data-test': test }, value));
  showPage(
    main,
    'Usage and credit',
    h('p', {}, `${u.organisationName} · ${u.tier} · period ${formatTime(u.periodStart)} – ${formatTime(u.periodEnd)}`),
    h(
      'table',
      { class: 'list', 'data-test': 'usage' },
      h(
        'tbody',
        {},
        row('Pages included per month', u.includedRendersPerMonth, 'pages-included'),
        row('Pages used this period', u.pagesUsedThisPeriod, 'pages-used'),
        row('Pages available', u.pagesAvailable, 'pages-available'),
        row('Tokens included per month', u.includedTokensPerMonth, 'tokens-included'),
        row('Tokens used this period', u.tokensUsedThisPeriod, 'tokens-used'),
        row('Tokens available', u.tokensAvailable, 'tokens-available'),
        row('Users', u.userCount, 'users'),
      ),
    ),
  );
}

/** Stored documents with the API's listing rules (search, environment filter, sort, paging), each PDF downloadable. */
export async function documentsPage(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const skip = Math.max(0, Number(params.get('skip') ?? '0') || 0);
  const search = params.get('search') ?? '';
  const environment = params.get('environment') ?? '';
  const sortBy = params.get('sortBy') ?? 'renderedAt';
  const query = new URLSearchParams({ skip: String(skip), take: String(PAGE), sortBy, sortDirection: 'desc' });
  if (search !== '') query.set('search', search);
  if (environment !== '') {
    query.set('filters[0].field', 'environment');
    query.set('filters[0].value', environment);
  }
  const page = await api.documents(query);
  const at = (changes: Record<string, string>) => {
    const next = new URLSearchParams({ search, environment, sortBy, skip: String(skip), ...changes });
    return `#/documents?${next.toString()}`;
  };

  const searchBox = h('input', { type: 'search', placeholder: 'Search by name', 'aria-label': 'search documents', 'data-test': 'document-search', value: search });
  const envSelect = h('select', { 'aria-label': 'environment', 'data-test': 'document-environment' }, h('option', { value: '' }, 'all environments'), h('option', { value: 'production' }, 'production'), h('option', { value: 'test' }, 'test'));
  envSelect.value = environment;
  const sortSelect = h('select', { 'aria-label': 'newest first by', 'data-test': 'document-sort' }, ...['renderedAt', 'documentName', 'pageCount', 'fileSizeBytes'].map((f) => h('option', { value: f }, f)));
  sortSelect.value = sortBy;
  const form = h('form', { class: 'create' }, searchBox, envSelect, sortSelect, h('button', { type: 'submit', 'data-test': 'document-filter' }, 'Show'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    location.hash = at({ search: searchBox.value.trim(), environment: envSelect.value, sortBy: sortSelect.value, skip: '0' });
  });
  showPage(
    main,
    'Documents',
    form,
    h(
      'p',
      { class: 'toolbar' },
      skip > 0 ? h('a', { href: at({ skip: String(Math.max(0, skip - PAGE)) }) }, '← previous') : null,
      h('span', { class: 'status', 'data-test': 'document-count' }, page.total === 0 ? 'no documents' : `${skip + 1}–${skip + page.items.length} of ${page.total}`),
      skip + PAGE < page.total ? h('a', { href: at({ skip: String(skip + PAGE) }) }, 'next →') : null,
    ),
    h(
      'table',
      { class: 'list', 'data-test': 'documents' },
      ...tableRows(
        ['Name', 'Rendered', 'Environment', 'Version', 'Pages', 'Size', ''],
        page.items.map((d: StoredDocument) =>
          h(
            'tr',
            { 'data-test': 'document' },
            h('td', {}, d.documentName),
            h('td', {}, formatTime(d.renderedAt)),
            h('td', {}, d.environment),
            h('td', {}, `v${d.versionNumber}`),
            h('td', {}, d.pageCount),
            h('td', {}, `${Math.ceil(d.fileSizeBytes / 1024)} KB`),
            h('td', {}, d.isPdfDeleted ? 'purged' : h('a', { href: `/workspace/api/documents/${encodeURIComponent(d.id)}/pdf`, download: `${d.documentName}.pdf`, 'data-test': 'download' }, 'Download PDF')),
          ),
        ),
      ),
    ),
  );
}
