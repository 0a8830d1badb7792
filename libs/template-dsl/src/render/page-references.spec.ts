import { RenderIssueType } from '@docrender/contracts';
import { Template } from '../model/template.types';
import { validateTemplate } from '../schema/validate-template';
import { compileDocument, validateDocument } from './compile-document';
import { anchorHtmlId, anchorOfHtmlId } from './page-references';

const issuesOf = (template: Template, data: unknown = {}): [string, string | null, string][] =>
  validateDocument({ template, data }).map((issue) => [issue.type, issue.elementId, issue.description]);

describe('issue 32 item 4: anchors and page references (compiler)', () => {
  const catalogue: Template = {
    body: [
      {
        type: 'repeater',
        id: 'contents',
        source: 'sections',
        as: 's',
        elements: [{ type: 'text', id: 'entry', text: '{{ s.title }} {{ pageOf(s.key) }}' }],
      },
      { type: 'repeater', id: 'sections', source: 'sections', as: 's', elements: [{ type: 'text', id: 'heading', heading: 2, anchor: '{{ s.key }}', text: '{{ s.title }}' }] },
      { type: 'richText', id: 'note', markdown: 'See page {{ pageOf("intro") }}.', anchor: 'intro' },
    ],
  };
  const data = { sections: [{ key: 'tools', title: 'Tools' }, { key: 'garden', title: 'Garden' }] };

  it('an anchor becomes the id of the element each time it is drawn; a reference is a link to it the printer fills in', () => {
    const compiled = compileDocument({ template: catalogue, data });
    expect(compiled.issues).toEqual([]);
    expect(compiled.pageReferences).toBe(true);
    expect(compiled.html).toContain(`<h2 id="${anchorHtmlId('tools')}"`);
    expect(compiled.html).toContain(`<h2 id="${anchorHtmlId('garden')}"`);
    expect(compiled.html).toContain(`Tools <a class="pr" href="#${anchorHtmlId('tools')}">?</a>`);
    expect(compiled.html).toContain(`See page <a class="pr" href="#${anchorHtmlId('intro')}">?</a>.`);
    expect(compiled.html).toContain('a.pr{color:inherit');
    expect(anchorOfHtmlId(anchorHtmlId('Ölmühle 7'))).toBe('Ölmühle 7');
  });

  it('a document without page references needs no printer work for them', () => {
    const compiled = compileDocument({ template: { body: [{ type: 'text', id: 't', text: 'x', anchor: 'a' }] }, data: {} });
    expect(compiled.pageReferences).toBe(false);
    expect(compiled.html).not.toContain('a.pr{');
  });

  it('a reference to an unknown anchor is an issue naming the element, and shows "?" without a link', () => {
    const template: Template = { body: [{ type: 'text', id: 'see', text: 'See page {{ pageOf("nowhere") }}' }] };
    expect(issuesOf(template)).toEqual([
      [RenderIssueType.MissingBinding, 'see', '"{{ pageOf("nowhere") }}": no element of the document has the anchor "nowhere"; the page reference shows "?".'],
    ]);
    const compiled = compileDocument({ template, data: {} });
    expect(compiled.pageReferences).toBe(false);
    expect(compiled.html).toContain('See page ?</p>');
  });

  it('a duplicate anchor is an issue naming the element; references go to the first', () => {
    const template: Template = {
      body: [
        { type: 'text', id: 'a', text: 'A', anchor: 'same' },
        { type: 'text', id: 'b', text: 'B', anchor: 'same' },
        { type: 'text', id: 'ref', text: '{{ pageOf("same") }}' },
      ],
    };
    expect(issuesOf(template)).toEqual([
      [RenderIssueType.BindingFailedAtRender, 'b', 'The anchor "same" is already the anchor of element "a"; it is left off here, and its page references go to the first.'],
    ]);
    const html = compileDocument({ template, data: {} }).html;
    expect(html.split(`id="${anchorHtmlId('same')}"`)).toHaveLength(2);
  });

  it('an empty anchor, pageOf inside an expression, in a header and an anchor in a header are issues naming the element', () => {
    const template: Template = {
      page: { header: { elements: [{ type: 'text', id: 'head', text: 'p. {{ pageOf("x") }}', anchor: 'top' }] } },
      body: [
        { type: 'text', id: 'empty', text: 'x', anchor: '{{ key }}' },
        { type: 'text', id: 'sum', text: '{{ pageOf("x") + 1 }}', anchor: 'x' },
      ],
    };
    const issues = issuesOf(template, { key: ' ' });
    expect(issues).toEqual(
      expect.arrayContaining([
        [RenderIssueType.InvalidLayout, 'head', 'anchor only names a place in the page body; a header or footer is on every page, so it is ignored.'],
        [RenderIssueType.MissingBinding, 'empty', 'The anchor "{{ key }}" gives only spaces, so it names no anchor.'],
        [RenderIssueType.BindingFailedAtRender, 'sum', expect.stringContaining('pageOf() shows the page an anchor is on only as a binding of its own in the text of the page body ({{ pageOf("x") }})')],
        [RenderIssueType.BindingFailedAtRender, 'head', expect.stringContaining('pageOf() shows the page an anchor is on only')],
      ]),
    );
  });

  it('the schema takes anchor on elements and outline on the template; pageOf is a known function', () => {
    expect(validateTemplate({ outline: true, body: [{ type: 'text', id: 't', anchor: 'a-{{ n }}', text: '{{ pageOf("a-1") }}' }] }).ok).toBe(true);
    expect(validateTemplate({ body: [{ type: 'pageBreak', id: 'p', anchor: 'a' }] }).ok).toBe(false);
  });
});
