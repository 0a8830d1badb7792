import { api, type Version } from './api';
import { formatTime, h, replace } from './dom';
import { lineDiff, prettyJson, type DiffLine } from './line-diff';

/** Unchanged lines kept around each change; longer unchanged runs fold into one line. */
const CONTEXT = 3;

function diffTable(lines: DiffLine[], part: string): HTMLElement {
  const changes = lines.filter((l) => l.kind !== 'same').length;
  if (changes === 0) return h('p', { class: 'status', 'data-test': `diff-${part}` }, 'No change.');
  const near = new Set<number>();
  lines.forEach((l, i) => {
    if (l.kind === 'same') return;
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(lines.length - 1, i + CONTEXT); k++) near.add(k);
  });
  const rows: HTMLElement[] = [];
  let folded = 0;
  const fold = () => {
    if (folded > 0) rows.push(h('tr', { class: 'fold' }, h('td', { colspan: 4 }, `… ${folded} unchanged line${folded === 1 ? '' : 's'}`)));
    folded = 0;
  };
  lines.forEach((l, i) => {
    if (!near.has(i)) {
      folded++;
      return;
    }
    fold();
    const sign = l.kind === 'removed' ? '-' : l.kind === 'added' ? '+' : ' ';
    rows.push(h('tr', { class: l.kind }, h('td', { class: 'n' }, l.oldNumber ?? ''), h('td', { class: 'n' }, l.newNumber ?? ''), h('td', { class: 'sign' }, sign), h('td', { class: 'text' }, l.text)));
  });
  fold();
  return h('div', {}, h('p', { class: 'status' }, `${changes} changed line${changes === 1 ? '' : 's'}`), h('table', { class: 'diff', 'data-test': `diff-${part}` }, h('tbody', {}, ...rows)));
}

const versionLabel = (v: Version): string => (v.publishedAt === null ? `v${v.versionNumber} (draft)` : `v${v.versionNumber} (published ${formatTime(v.publishedAt)})`);

/** Compare two versions of a template (issue 35 item 2): a line diff of each part, JSON pretty-printed first. Any role. */
export async function comparePage(main: HTMLElement, templateId: string, from: number, to: number): Promise<void> {
  const [{ template, versions }, compared] = await Promise.all([api.template(templateId), api.compare(templateId, from, to)]);
  const chooser = (selected: number, label: string, onChange: (n: number) => void): HTMLSelectElement => {
    const select = h('select', { 'aria-label': label, 'data-test': label.replace(/ /g, '-') }, ...versions.map((v) => h('option', { value: v.versionNumber }, versionLabel(v))));
    select.value = String(selected);
    select.addEventListener('change', () => onChange(Number(select.value)));
    return select;
  };
  const go = (a: number, b: number) => (location.hash = `#/templates/${templateId}/compare/${a}/${b}`);
  const before = compared.from;
  const after = compared.to;
  const parts: Array<[string, string, string, string]> = [
    ['dsl', 'Template (DSL)', prettyJson(before.templateJson ?? null), prettyJson(after.templateJson ?? null)],
    ['sample-data', 'Sample data', prettyJson(before.sampleData ?? null), prettyJson(after.sampleData ?? null)],
    ['translations', 'Translations', prettyJson(before.translations), prettyJson(after.translations)],
    ['document-name', 'Document-name template', before.documentNameTemplate ?? '', after.documentNameTemplate ?? ''],
  ];
  replace(
    main,
    h(
      'section',
      {},
      h(
        'div',
        { class: 'toolbar' },
        h('h1', {}, 'Compare ', h('a', { href: `#/templates/${templateId}` }, template.name)),
        chooser(from, 'compare from', (n) => go(n, to)),
        '→',
        chooser(to, 'compare to', (n) => go(from, n)),
      ),
      ...parts.flatMap(([key, title, a, b]) => [h('h2', {}, title), diffTable(lineDiff(a, b), key)]),
    ),
  );
}
