import { api, type Asset, type Session } from './api';
import { h, replace, showPage, tableRows } from './dom';
import { drawPdf } from './pdf-pages';
import { message, readBase64 } from './upload';

const size = (bytes: number): string => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** Shows an asset below the list: an image as an image (an <img> runs nothing, even an SVG), a PDF drawn page by page. */
async function show(asset: Asset, target: HTMLElement): Promise<void> {
  const heading = h('h2', {}, asset.name);
  if (asset.contentType === 'application/pdf') {
    const response = await fetch(api.assetUrl(asset.name, false), { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`${asset.name}: ${response.status} ${response.statusText}`);
    const pages = h('div', { class: 'pages', 'data-test': 'asset-pages' });
    replace(target, heading, pages);
    await drawPdf(new Uint8Array(await response.arrayBuffer()), pages, Math.min(target.clientWidth || 560, 700));
  } else {
    replace(target, heading, h('img', { class: 'asset-image', src: api.assetUrl(asset.name, false), alt: asset.name, 'data-test': 'asset-image' }));
  }
}

/**
 * Assets (issue 35 item 4): the organisation's images (`asset:<name>` in an image's source) and PDFs (an attachment's
 * `asset`). Every role lists, shows and downloads them; owners upload (a name given again replaces the file) and delete.
 * The list is a page by name (200, the API's page): the names after `after`, from the first when null, with a link to
 * the next page when more follow and back to the first.
 */
export async function assetsPage(main: HTMLElement, session: Session, after: string | null = null): Promise<void> {
  const { items, next } = await api.assets(after);
  const pager =
    after === null && next === null
      ? null
      : h(
          'p',
          { class: 'toolbar', 'data-test': 'assets-pager' },
          after === null ? null : h('a', { href: '#/assets', 'data-test': 'first-assets' }, '← first'),
          h('span', { class: 'status', 'data-test': 'assets-range' }, `${after === null ? `The first ${items.length} assets by name` : `${items.length} assets after ${after}`}${next === null ? '' : '; more follow'}`),
          next === null ? null : h('a', { href: `#/assets?after=${encodeURIComponent(next)}`, 'data-test': 'next-assets' }, 'next →'),
        );
  const problem = h('p', { class: 'problem', role: 'alert' });
  const shown = h('section', { class: 'asset-shown', 'data-test': 'asset-shown' });
  const owner = session.user.role === 'owner';
  let upload: HTMLElement | null = null;
  if (owner) {
    const name = h('input', { type: 'text', required: true, placeholder: 'Name, e.g. brand/logo.png', 'aria-label': 'asset name', 'data-test': 'asset-name' });
    const file = h('input', { type: 'file', accept: '.png,.jpg,.jpeg,.gif,.webp,.avif,.svg,.pdf', required: true, 'aria-label': 'asset file', 'data-test': 'asset-file' });
    file.addEventListener('change', () => {
      if (name.value.trim() === '' && file.files?.[0] !== undefined) name.value = file.files[0].name.replace(/[^A-Za-z0-9._/-]/g, '-');
    });
    const form = h('form', { class: 'create' }, name, file, h('button', { type: 'submit', class: 'primary', 'data-test': 'upload-asset' }, 'Upload asset'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const chosen = file.files?.[0];
      if (chosen === undefined) return;
      readBase64(chosen)
        .then((contentBase64) => api.uploadAsset(name.value.trim(), contentBase64))
        .then(
          () => void assetsPage(main, session, after),
          (error: unknown) => (problem.textContent = message(error)),
        );
    });
    upload = form;
  }
  const row = (asset: Asset) => {
    const preview = h('button', { type: 'button', class: 'link', 'data-test': 'show-asset' }, 'Show');
    preview.addEventListener('click', () => void show(asset, shown).catch((error: unknown) => (problem.textContent = message(error))));
    let remove: HTMLElement | null = null;
    if (owner) {
      remove = h('button', { type: 'button', class: 'link', 'data-test': 'delete-asset' }, 'Delete');
      remove.addEventListener('click', () => {
        if (!window.confirm(`Delete ${asset.name}? Templates that use it will show an unresolved image.`)) return;
        api.deleteAsset(asset.name).then(
          () => void assetsPage(main, session, after),
          (error: unknown) => (problem.textContent = message(error)),
        );
      });
    }
    return h(
      'tr',
      { 'data-test': 'asset' },
      h('td', { class: 'mono' }, asset.name),
      h('td', { class: 'mono' }, asset.reference),
      h('td', {}, asset.contentType),
      h('td', {}, size(asset.bytes)),
      h('td', {}, preview, ' ', h('a', { href: api.assetUrl(asset.name, true), download: '', 'data-test': 'download-asset' }, 'Download'), ' ', remove),
    );
  };
  showPage(
    main,
    'Assets',
    h('p', {}, 'Images are used in an image element\u2019s source as asset:<name>; PDFs are attached with an attachment\u2019s asset.'),
    upload,
    problem,
    pager,
    items.length === 0
      ? h('p', { 'data-test': 'no-assets' }, after === null ? 'No assets yet.' : `No assets after ${after}.`)
      : h(
          'table',
          { class: 'list', 'data-test': 'assets' },
          ...tableRows(['Name', 'Reference', 'Type', 'Size', ''], items.map(row)),
        ),
    shown,
  );
}
