import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MalformedCallbackError, readCallback, WebhookSignatureError, type ReceivedCallback } from '@docrender/client';

/** Largest callback body accepted: a progress callback may carry a PDF as Base64. */
const MAX_BODY_BYTES = 256 * 1024 * 1024;

export type CallbackReceiverOptions = {
  host: string;
  port: number;
  /** The organisation's webhook signing secret(s), `whsec_…`. */
  secrets: readonly string[];
  /** Each verified, well-formed callback, after it was answered 200. */
  onCallback(callback: ReceivedCallback): void;
  /** A request answered 400: why. */
  onRejected(reason: string): void;
};

/**
 * A small HTTP server that receives the job callbacks of `render --async --receive`: every POST is verified with the
 * SDK's `readCallback` (the shared verifier, spec 6.4) before its body is read as a callback; a failure answers 400 and
 * the payload is dropped, a success answers 200 at once and hands the callback on.
 */
export class CallbackReceiver {
  private constructor(private readonly server: Server) {}

  static start(options: CallbackReceiverOptions): Promise<CallbackReceiver> {
    const server = createServer((req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(405, { Allow: 'POST' }).end();
        return;
      }
      void readBody(req).then(
        (rawBody) => {
          let callback: ReceivedCallback;
          try {
            callback = readCallback({ rawBody, headers: req.headers, secrets: options.secrets });
          } catch (error) {
            if (!(error instanceof WebhookSignatureError) && !(error instanceof MalformedCallbackError)) throw error;
            res.writeHead(400).end();
            options.onRejected(error.message);
            return;
          }
          res.writeHead(200).end();
          options.onCallback(callback);
        },
        (error: Error) => {
          res.writeHead(413).end();
          options.onRejected(error.message);
        },
      );
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve(new CallbackReceiver(server));
      });
    });
  }

  /** The port actually bound (useful with port 0). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`callback body over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
