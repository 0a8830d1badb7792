import { TemplateCache } from './template-cache';

describe('prepared templates are reused across messages', () => {
  it('hands back the first object seen for the same template content', () => {
    const cache = new TemplateCache(10);
    const first = { dsl: 1, body: [{ type: 'text', id: 'a', text: 'x' }] };
    expect(cache.canonical(first)).toBe(first);
    expect(cache.canonical(JSON.parse(JSON.stringify(first)))).toBe(first);
    const other = { dsl: 1, body: [{ type: 'text', id: 'a', text: 'y' }] };
    expect(cache.canonical(other)).toBe(other);
  });

  it('keeps at most maxTemplates, dropping the least recently used', () => {
    const cache = new TemplateCache(2);
    const a = { name: 'a' };
    const b = { name: 'b' };
    cache.canonical(a);
    cache.canonical(b);
    cache.canonical({ name: 'a' });
    cache.canonical({ name: 'c' });
    expect(cache.size).toBe(2);
    expect(cache.canonical({ name: 'a' })).toBe(a);
    expect(cache.canonical({ name: 'b' })).not.toBe(b);
  });
});
