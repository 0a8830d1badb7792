import { createHash } from 'node:crypto';
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

describe('0022: a template known by the digest its sender computed once', () => {
  const digestOf = (template: unknown): string => createHash('sha256').update(JSON.stringify(template)).digest('base64');

  it('a sender\'s digest finds the template hashed here from an older sender\'s command, and the other way round', () => {
    const cache = new TemplateCache(10);
    const older = { dsl: 1, body: [{ type: 'text', id: 'a', text: 'x' }] };
    expect(cache.canonical(older)).toBe(older);
    expect(cache.canonical(JSON.parse(JSON.stringify(older)), digestOf(older))).toBe(older);
    const newer = { dsl: 1, body: [] };
    expect(cache.canonical(newer, digestOf(newer))).toBe(newer);
    expect(cache.canonical(JSON.parse(JSON.stringify(newer)))).toBe(newer);
  });

  it('with a digest the template is not serialised again', () => {
    const cache = new TemplateCache(10);
    const template = { dsl: 1, toJSON: () => { throw new Error('serialised'); } };
    expect(cache.canonical(template, digestOf({ dsl: 1 }))).toBe(template);
  });

  it('a command whose digest is not one is hashed here', () => {
    const cache = new TemplateCache(10);
    const template = { dsl: 2 };
    expect(cache.canonical(template)).toBe(template);
    expect(cache.canonical({ dsl: 2 }, 'not a digest')).toBe(template);
  });
});
