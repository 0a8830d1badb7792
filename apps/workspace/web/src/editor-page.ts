import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab, redo, undo } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, foldGutter, indentOnInput, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { linter, lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { api, ApiError, type Issue, type Session, type Version } from './api';
import { formatTime, h, replace } from './dom';
import { locateElement, locatePath, parsePath, schemaCompletion } from './json-tools';
import { drawPdf } from './pdf-pages';

/** Opens `hash`, drawing the page again when it is the one already open (a draft just published). */
function show(hash: string): void {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

/** The nonce this page's policy allows style elements with (the editor's styles). */
const styleNonce = document.querySelector<HTMLMetaElement>('meta[name=csp-nonce]')?.content ?? '';

/** Wait after the last keystroke before the draft is previewed. */
const PREVIEW_DEBOUNCE_MS = 250;

function jsonEditor(parent: HTMLElement, text: string, readOnly: boolean, onChange: () => void, extra: Extension[] = []): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        foldGutter(),
        history(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle),
        json(),
        linter(jsonParseLinter()),
        lintGutter(),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
        EditorView.cspNonce.of(styleNonce),
        EditorState.readOnly.of(readOnly),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange();
        }),
        ...extra,
      ],
    }),
  });
}

function languagesOf(translations: string): string[] {
  try {
    const parsed = JSON.parse(translations) as { languages?: Record<string, unknown> };
    return Object.keys(parsed.languages ?? {});
  } catch {
    return [];
  }
}

/**
 * The template editor (issue 35 items 2, 3): the DSL in a code editor with completion from the DSL schema, the sample
 * data, translations and document-name template beside it; undo (the editor's history, Ctrl-Z); the draft previewed
 * as you type, as the real PDF page by page in a chosen language, with its issues, each taking you to its element.
 */
export async function editorPage(main: HTMLElement, session: Session, templateId: string, wanted: number | null): Promise<void> {
  const [{ template, versions }, schema] = await Promise.all([api.template(templateId), api.dslSchema()]);
  const versionNumber = wanted ?? versions[versions.length - 1]?.versionNumber ?? 1;
  const version = await api.version(templateId, versionNumber);
  const canEdit = session.user.role !== 'viewer' && version.publishedAt === null;

  const status = h('span', { class: 'status', 'data-test': 'status' });
  const issuesList = h('ul', { class: 'issues', 'data-test': 'issues' });
  const pages = h('div', { class: 'pages', 'data-test': 'pages' });
  const previewState = h('span', { class: 'preview-state', 'data-test': 'preview-state' });
  const languageSelect = h('select', { 'aria-label': 'preview language', 'data-test': 'language' });
  const documentName = h('input', { type: 'text', value: version.documentNameTemplate ?? '', 'aria-label': 'document-name template', placeholder: 'e.g. Invoice {{ number }}', 'data-test': 'document-name' });
  documentName.readOnly = !canEdit;

  let previewTimer: number | undefined;
  let inFlight: AbortController | null = null;
  let dirty = false;
  const schedule = (): void => {
    dirty = true;
    status.textContent = canEdit ? 'unsaved changes' : '';
    window.clearTimeout(previewTimer);
    previewTimer = window.setTimeout(() => void runPreview(), PREVIEW_DEBOUNCE_MS);
  };

  const dslHost = h('div', { class: 'code dsl', 'data-test': 'dsl-editor' });
  const dataHost = h('div', { class: 'code side' });
  const translationsHost = h('div', { class: 'code side' });
  const dsl = jsonEditor(dslHost, version.templateJson ?? '', !canEdit, schedule, [autocompletion({ override: [schemaCompletion(schema as never)] })]);
  const sample = jsonEditor(dataHost, version.sampleData ?? '', !canEdit, schedule);
  const translations = jsonEditor(translationsHost, version.translations ?? '', !canEdit, () => {
    refreshLanguages();
    schedule();
  });
  documentName.addEventListener('input', schedule);
  languageSelect.addEventListener('change', () => void runPreview());

  function refreshLanguages(): void {
    const current = languageSelect.value;
    const languages = languagesOf(translations.state.doc.toString());
    replace(languageSelect, h('option', { value: '' }, 'default language'), ...languages.map((l) => h('option', { value: l, selected: l === current }, l)));
  }
  refreshLanguages();

  const content = () => {
    const translationsText = translations.state.doc.toString().trim();
    return {
      templateJson: dsl.state.doc.toString(),
      sampleData: sample.state.doc.toString(),
      translations: translationsText === '' ? null : translationsText,
      documentNameTemplate: documentName.value.trim() === '' ? null : documentName.value,
    };
  };

  function jumpTo(issue: Issue): void {
    const range = issue.elementId !== null ? locateElement(dsl.state, issue.elementId) : issue.path !== null ? locatePathText(issue.path) : null;
    if (range === null) return;
    dsl.dispatch({ selection: { anchor: range.from, head: range.to }, scrollIntoView: true });
    dsl.focus();
  }

  function locatePathText(path: string): { from: number; to: number } | null {
    const segments = parsePath(path);
    return segments === null ? null : locatePath(dsl.state, segments);
  }

  function showIssues(issues: Issue[]): void {
    const diagnostics: Diagnostic[] = [];
    replace(
      issuesList,
      ...issues.map((issue) => {
        const range = issue.elementId !== null ? locateElement(dsl.state, issue.elementId) : issue.path !== null ? locatePathText(issue.path) : null;
        if (range !== null) diagnostics.push({ from: range.from, to: range.to, severity: issue.severity === 'Error' ? 'error' : issue.severity === 'Warning' ? 'warning' : 'info', message: issue.description });
        const where = issue.elementId ?? issue.path;
        return h(
          'li',
          { class: `issue ${issue.severity.toLowerCase()}` },
          h('button', { type: 'button', class: 'link', onclick: () => jumpTo(issue), disabled: range === null, 'data-test': 'issue' }, `${issue.severity} · ${issue.type}${where ? ` · ${where}` : ''}`),
          h('div', {}, issue.description),
        );
      }),
    );
    if (issues.length === 0) issuesList.append(h('li', { class: 'none' }, 'No issues.'));
    dsl.dispatch(setDiagnostics(dsl.state, diagnostics));
  }

  async function runPreview(): Promise<void> {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    previewState.textContent = 'rendering…';
    const started = performance.now();
    try {
      const result = await api.preview({ ...content(), language: languageSelect.value === '' ? null : languageSelect.value }, controller.signal);
      if (controller.signal.aborted) return;
      showIssues(result.issues);
      if (result.pdfBase64 !== null) {
        const bytes = Uint8Array.from(atob(result.pdfBase64), (c) => c.charCodeAt(0));
        const count = await drawPdf(bytes, pages, Math.min(pages.clientWidth || 560, 800));
        if (controller.signal.aborted) return;
        previewState.textContent = `${count} page${count === 1 ? '' : 's'} · ${Math.round(performance.now() - started)} ms`;
        pages.dataset.rendered = String(Date.now());
      } else {
        previewState.textContent = result.outcome === 'invalid' ? 'not rendered: the template has errors' : `not rendered: ${result.outcome}`;
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      previewState.textContent = `preview failed: ${(error as Error).message}`;
    }
  }

  async function save(): Promise<boolean> {
    try {
      await api.saveDraft(templateId, versionNumber, content());
      dirty = false;
      status.textContent = `saved ${new Date().toLocaleTimeString()}`;
      return true;
    } catch (error) {
      status.textContent = error instanceof ApiError ? `not saved: ${[error.message, ...error.problems].join('; ')}` : `not saved: ${(error as Error).message}`;
      return false;
    }
  }

  async function publish(): Promise<void> {
    if (dirty && !(await save())) return;
    try {
      const published = await api.publish(templateId, versionNumber);
      show(`#/templates/${templateId}/versions/${published.versionNumber}`);
    } catch (error) {
      status.textContent = error instanceof ApiError ? `not published: ${[error.message, ...error.problems].join('; ')}` : `not published: ${(error as Error).message}`;
    }
  }

  async function startDraft(from: number): Promise<void> {
    const draft = await api.newDraft(templateId, from);
    show(`#/templates/${templateId}/versions/${draft.versionNumber}`);
  }

  const versionRows = versions
    .slice()
    .reverse()
    .map((v: Version) =>
      h(
        'li',
        { class: v.versionNumber === versionNumber ? 'current' : '' },
        h('a', { href: `#/templates/${templateId}/versions/${v.versionNumber}` }, `v${v.versionNumber}`),
        ' ',
        v.publishedAt === null ? h('span', { class: 'badge draft' }, 'draft') : h('span', { class: 'badge published' }, `published ${formatTime(v.publishedAt)} by ${v.publishedBy ?? ''}`),
        session.user.role !== 'viewer' ? h('button', { type: 'button', class: 'link', onclick: () => void startDraft(v.versionNumber), 'data-test': `draft-from-${v.versionNumber}` }, 'new draft from this') : null,
        v.versionNumber !== versionNumber
          ? h(
              'a',
              { href: `#/templates/${templateId}/compare/${Math.min(v.versionNumber, versionNumber)}/${Math.max(v.versionNumber, versionNumber)}`, 'data-test': `compare-${v.versionNumber}` },
              `compare with v${versionNumber}`,
            )
          : null,
      ),
    );

  replace(
    main,
    h(
      'section',
      { class: 'editor-page' },
      h(
        'div',
        { class: 'toolbar' },
        h('h1', {}, template.name),
        h('span', { class: 'version', 'data-test': 'version' }, `version ${versionNumber} · ${version.publishedAt === null ? 'draft' : 'published'}`),
        canEdit ? h('button', { type: 'button', onclick: () => undo(dsl), title: 'Undo (Ctrl-Z)' }, 'Undo') : null,
        canEdit ? h('button', { type: 'button', onclick: () => redo(dsl), title: 'Redo (Ctrl-Shift-Z)' }, 'Redo') : null,
        canEdit ? h('button', { type: 'button', onclick: () => void save(), 'data-test': 'save' }, 'Save draft') : null,
        canEdit ? h('button', { type: 'button', class: 'primary', onclick: () => void publish(), 'data-test': 'publish' }, 'Publish') : null,
        status,
      ),
      h(
        'div',
        { class: 'columns' },
        h(
          'div',
          { class: 'left' },
          h('h2', {}, 'Template (DSL)'),
          dslHost,
          h('label', {}, 'Document name ', documentName),
          h('details', { open: true }, h('summary', {}, 'Sample data'), dataHost),
          h('details', {}, h('summary', {}, 'Translations'), translationsHost),
          h('details', {}, h('summary', {}, `Versions (${versions.length})`), h('ul', { class: 'versions', 'data-test': 'versions' }, ...versionRows)),
        ),
        h(
          'div',
          { class: 'right' },
          h('div', { class: 'preview-bar' }, h('h2', {}, 'Preview'), languageSelect, previewState),
          h('h3', {}, 'Issues'),
          issuesList,
          pages,
        ),
      ),
    ),
  );
  void runPreview();
}

