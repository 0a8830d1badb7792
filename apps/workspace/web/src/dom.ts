/**
 * Builds elements from text only: every string child becomes a text node and attributes are set one by one, so a
 * template named `<script>` or an issue quoting markup is shown as text, never parsed as HTML (issue 35 item 6).
 * No page of the workspace uses innerHTML.
 */
type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | boolean | number | EventListener | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces the children of `parent`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

export function formatTime(iso: string | null): string {
  return iso === null ? '—' : new Date(iso).toLocaleString();
}

/** The heading row (`thead`) and the rows (`tbody`) of a table, one `th` a heading (an empty one over a column of buttons). */
export function tableRows(headings: string[], rows: Node[]): [HTMLTableSectionElement, HTMLTableSectionElement] {
  return [h('thead', {}, h('tr', {}, ...headings.map((heading) => h('th', {}, heading)))), h('tbody', {}, ...rows)];
}

/** Shows a page in `main`: a section headed by `title`, then `children`. */
export function showPage(main: HTMLElement, title: string, ...children: Child[]): void {
  replace(main, h('section', {}, h('h1', {}, title), ...children));
}
