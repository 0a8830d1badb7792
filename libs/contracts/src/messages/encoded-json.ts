/**
 * A JSON value already encoded, for a value sent unchanged in many messages (a template with every document of its
 * version): the message bus writes the text as it is instead of serialising the value again for each message
 * (decision 0022), and the receiver gets the value, as if the value itself had been sent. Made with `EncodedJson.of`,
 * so the text is always one valid JSON value.
 */
export class EncodedJson {
  private constructor(readonly text: string) {}

  static of(value: unknown): EncodedJson {
    return new EncodedJson(JSON.stringify(value) ?? 'null');
  }

  /** Serialised anywhere other than where the bus writes the text (a top-level payload field), it is the value it holds. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}
