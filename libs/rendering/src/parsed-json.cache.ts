/**
 * JSON.parse for texts that come back render after render: the template and translations of the versions being
 * rendered. Parsing an invoice template costs about a third of a millisecond of event loop per render; this keeps
 * the values of the last `maxEntries` texts of at most `maxTextLength` characters (least recently used dropped
 * first), so memory stays bounded. A value is shared by every render that parses the same text: nothing modifies
 * templates or translations (they are serialised into render commands, which copies them).
 * Entries are found by the caller's key (which version, which text of it) and used only when the text is the one
 * parsed: the text comes fresh from the database for every render, and looking it up by itself would hash all of it
 * each time, where comparing it with the kept text is a plain comparison of characters.
 */
export class ParsedJsonCache {
  private readonly entries = new Map<string, { text: string; value: unknown }>();

  constructor(
    private readonly maxEntries: number,
    private readonly maxTextLength: number,
  ) {}

  parse(key: string, text: string): unknown {
    const known = this.entries.get(key);
    if (known !== undefined && known.text === text) {
      this.entries.delete(key);
      this.entries.set(key, known);
      return known.value;
    }
    const value = JSON.parse(text) as unknown;
    if (text.length <= this.maxTextLength) {
      this.entries.delete(key);
      this.entries.set(key, { text, value });
      if (this.entries.size > this.maxEntries) {
        const oldest = this.entries.keys().next();
        if (oldest.done !== true) this.entries.delete(oldest.value);
      }
    } else {
      this.entries.delete(key);
    }
    return value;
  }
}
