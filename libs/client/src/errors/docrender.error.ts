/**
 * The base of every exception the SDK throws for a request (HTTP answers, timeouts, connection failures, undecodable
 * bodies, job waits). Webhook verification throws the shared library's `WebhookSignatureError` and
 * `MalformedCallbackError` instead: a receiver handles those apart from API calls.
 */
export class DocrenderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}
