/**
 * JSON.parse for texts that come back render after render: the template and translations of the versions being
 * rendered. Parsing an invoice template costs about a third of a millisecond of event loop per render; this keeps
 * the values of the last `maxEntries` texts of at most `maxTextLength` characters (least recently used dropped
 * first), so memory stays bounded. A value is shared by every render that parses the same text: nothing modifies
 * templates or translations (they are serialised into render commands, which copies them).
 */
export class ParsedJsonCache {
  private readonly values = new Map<string, unknown>();

  constructor(
    private readonly maxEntries: number,
    private readonly maxTextLength: number,
  ) {}

  parse(text: string): unknown {
    const known = this.values.get(text);
    if (known !== undefined) {
      this.values.delete(text);
      this.values.set(text, known);
      return known;
    }
    const value = JSON.parse(text) as unknown;
    if (text.length <= this.maxTextLength) {
      this.values.set(text, value);
      if (this.values.size > this.maxEntries) {
        const oldest = this.values.keys().next();
        if (oldest.done !== true) this.values.delete(oldest.value);
      }
    }
    return value;
  }
}
