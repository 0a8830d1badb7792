import { RenderIssueType } from '@docrender/contracts';
import { Template } from '../model/template.types';
import { compileDocument, validateDocument } from './compile-document';
import { InvalidTemplateError } from './prepared-template';

const richText = (markdown: string): Template => ({ body: [{ type: 'richText', id: 'notes', markdown }] });

/** The rendered body, without the document around it. */
function body(template: Template, data: unknown): { html: string; issues: ReturnType<typeof compileDocument>['issues'] } {
  const doc = compileDocument({ template, data });
  const html = /<body>([\s\S]*)<\/body>/.exec(doc.html)?.[1] ?? '';
  return { html, issues: doc.issues };
}

describe('issue 21 item 5: rich text from data ({{ value | markdown }}), the same safe subset as templates', () => {
  it('a Markdown binding on a paragraph of its own brings block content: emphasis, lists and links', () => {
    const r = body(richText('## Notes\n\n{{ notes | markdown }}\n\nThank you.'), {
      notes: 'Delivery **before noon**, *please*:\n\n- ring twice\n- [map](https://maps.example/x)',
    });
    expect(r.issues).toEqual([]);
    expect(r.html).toContain('<p>Delivery <strong>before noon</strong>, <em>please</em>:</p>');
    expect(r.html).toContain('<ul>\n<li>ring twice</li>\n<li><a href="https://maps.example/x">map</a></li>\n</ul>');
    expect(r.html).toContain('<p>Thank you.</p>');
    expect(r.html).not.toContain('<p><p>');
  });

  it('inside a sentence, Markdown from data is inline', () => {
    const r = body(richText('Status: {{ status | markdown }}.'), { status: '**paid** on *Monday*' });
    expect(r.html).toContain('<p>Status: <strong>paid</strong> on <em>Monday</em>.</p>');
  });

  it('without the declaration, Markdown in data stays text', () => {
    const r = body(richText('{{ notes }}'), { notes: '**not bold**' });
    expect(r.html).toContain('**not bold**');
    expect(r.html).not.toContain('<strong>');
  });

  it('HTML in data Markdown is shown as text; a link target that is not an allowed address is dropped with a BindingFailedAtRender', () => {
    const r = body(richText('{{ notes | markdown }}'), { notes: 'a <b>b</b> [click](ftp://files.example/x) [ok](mailto:a@b.example)' });
    expect(r.html).toContain('a &lt;b&gt;b&lt;/b&gt; <span>click</span> <a href="mailto:a@b.example">ok</a>');
    expect(r.issues).toEqual([expect.objectContaining({ type: RenderIssueType.BindingFailedAtRender, elementId: 'notes', description: expect.stringContaining('"ftp://files.example/x"') })]);
  });

  it("data Markdown cannot close or reopen the template's own markup", () => {
    const r = body(richText('**Bold {{ notes | markdown }} still bold**'), { notes: '** open' });
    expect(r.html).toContain('<strong>Bold ** open still bold</strong>');
  });

  it('the Markdown faces (bold, italic, code) are embedded for data Markdown', () => {
    const doc = compileDocument({ template: richText('{{ notes | markdown }}'), data: { notes: '**b** *i* `c`' } });
    expect(doc.html).toMatch(/font-family:'Roboto Mono'[\s\S]*?font-weight:400/);
    expect(doc.html).toMatch(/font-family:'Inter';font-style:italic/);
  });

  it('Markdown declared outside rich text is refused when the template is validated', () => {
    expect(() => validateDocument({ template: { body: [{ type: 'text', id: 't', text: '{{ notes | markdown }}' }] }, data: {} })).toThrow(InvalidTemplateError);
  });
});
