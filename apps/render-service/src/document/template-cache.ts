import { createHash } from 'node:crypto';

/**
 * Hands back one template object per distinct template content. The template DSL keeps its prepared form (schema
 * validation, styles, fonts: most of an invoice's compile time) per template object; each message carries a freshly
 * parsed copy, so without this every document of a batch would be prepared again. Bounded, least recently used
 * dropped first. The DSL does not modify templates, so sharing the object between renders is safe.
 */
export class TemplateCache {
  private readonly templates = new Map<string, unknown>();

  constructor(private readonly maxTemplates: number) {}

  get size(): number {
    return this.templates.size;
  }

  canonical(template: unknown): unknown {
    const key = createHash('sha256').update(JSON.stringify(template) ?? 'undefined').digest('base64');
    const known = this.templates.get(key);
    if (known !== undefined) {
      this.templates.delete(key);
      this.templates.set(key, known);
      return known;
    }
    this.templates.set(key, template);
    if (this.templates.size > this.maxTemplates) {
      const oldest = this.templates.keys().next();
      if (oldest.done !== true) this.templates.delete(oldest.value);
    }
    return template;
  }
}
