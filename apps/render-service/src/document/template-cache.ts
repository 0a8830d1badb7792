import { createHash } from 'node:crypto';

/** A digest as senders compute it (decision 0022): SHA-256 of the template's JSON text, base64. */
const DIGEST = /^[A-Za-z0-9+/]{43}=$/;

/**
 * Hands back one template object per distinct template content. The template DSL keeps its prepared form (schema
 * validation, styles, fonts: most of an invoice's compile time) per template object; each message carries a freshly
 * parsed copy, so without this every document of a batch would be prepared again. Bounded, least recently used
 * dropped first. The DSL does not modify templates, so sharing the object between renders is safe.
 *
 * Templates are known by the SHA-256 of their JSON text. A sender that computed it once for the template's version
 * sends it with each command (RenderDocumentCommand.templateDigest), and the template is then not serialised and
 * hashed again here for every document; a command without one (an older sender, a preview) is hashed here, to the
 * same digest. The digest is trusted as the template beside it is: both come from the service's own senders.
 */
export class TemplateCache {
  private readonly templates = new Map<string, unknown>();

  constructor(private readonly maxTemplates: number) {}

  get size(): number {
    return this.templates.size;
  }

  canonical(template: unknown, digest?: string): unknown {
    const key = digest !== undefined && DIGEST.test(digest) ? digest : createHash('sha256').update(JSON.stringify(template) ?? 'undefined').digest('base64');
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
