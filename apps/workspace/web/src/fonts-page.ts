import { api, type FontFamily, type FontFamilyUse, type Session } from './api';
import { h, showPage, tableRows } from './dom';
import { message, readBase64 } from './upload';

/** A template using a family, with a link to each version that does (drafts marked). */
const use = (u: FontFamilyUse) =>
  h(
    'li',
    { 'data-test': 'font-use' },
    h('span', {}, u.templateName),
    ': ',
    ...u.versions.flatMap((v, i) => [i === 0 ? null : ', ', h('a', { href: `#/templates/${encodeURIComponent(u.templateId)}/versions/${v.versionNumber}` }, `v${v.versionNumber}${v.published ? '' : ' (draft)'}`)]),
  );

/**
 * Fonts (issue 35 item 4): built-in and custom families with their variants and the templates (versions) using each;
 * owners upload a custom family's files.
 */
export async function fontsPage(main: HTMLElement, session: Session): Promise<void> {
  const { items } = await api.fonts();
  const problem = h('p', { class: 'problem', role: 'alert' });
  let upload: HTMLElement | null = null;
  if (session.user.role === 'owner') {
    const family = h('input', { type: 'text', required: true, placeholder: 'Family', 'aria-label': 'font family', 'data-test': 'font-family' });
    const weight = h('input', { type: 'number', min: '1', max: '1000', value: '400', 'aria-label': 'weight', 'data-test': 'font-weight' });
    const style = h('select', { 'aria-label': 'style', 'data-test': 'font-style' }, h('option', { value: 'normal' }, 'normal'), h('option', { value: 'italic' }, 'italic'));
    const file = h('input', { type: 'file', accept: '.woff2,.woff,.ttf,.otf', required: true, 'aria-label': 'font file', 'data-test': 'font-file' });
    const form = h('form', { class: 'create' }, family, weight, style, file, h('button', { type: 'submit', class: 'primary', 'data-test': 'upload-font' }, 'Upload font'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const chosen = file.files?.[0];
      if (chosen === undefined) return;
      readBase64(chosen)
        .then((contentBase64) => api.uploadFont({ family: family.value.trim(), weight: Number(weight.value), style: style.value === 'italic' ? 'italic' : 'normal', fileName: chosen.name, contentBase64 }))
        .then(
          () => void fontsPage(main, session),
          (error: unknown) => (problem.textContent = message(error)),
        );
    });
    upload = form;
  }
  const variants = (f: FontFamily) => f.variants.map((v) => `${v.weight} ${v.style}${v.format === null ? '' : ` (${v.format})`}`).join(', ');
  showPage(
    main,
    'Fonts',
    h('p', {}, 'Templates name these families in fontFamily.'),
    upload,
    problem,
    h(
      'table',
      { class: 'list', 'data-test': 'fonts' },
      ...tableRows(
        ['Family', 'Source', 'Variants', 'Used by'],
        items.map((f) =>
          h(
            'tr',
            { 'data-test': `font-${f.source}` },
            h('td', {}, f.family),
            h('td', {}, f.source),
            h('td', {}, variants(f)),
            h('td', { 'data-test': 'font-used-by' }, f.usedBy.length === 0 ? 'no template' : h('ul', { class: 'uses' }, ...f.usedBy.map(use))),
          ),
        ),
      ),
    ),
  );
}
