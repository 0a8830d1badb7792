import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookHeader } from '@docrender/contracts';
import { WebhookSignatureError, WebhookVerifier } from '@docrender/webhooks';

/** One request the receiver got, verified (or not) with the receiver's secrets before anything else. */
export type ReceivedCallback = {
  path: string;
  receivedAt: number;
  deliveryId: string;
  event: string;
  signatureHeader: string;
  rawBody: string;
  /** null when the signature verified; the failure reason otherwise (answered 400, as spec 6.4 rule 6 says). */
  signatureFailure: string | null;
};

/**
 * How the receiver answers a path: a status code, `hang` (a black hole that never answers), a status after a pause, or
 * a status held back until `inFlight` requests to the path are open at once (then every held one is answered), or
 * until the path has received `received` requests in all (the last, smaller wave): a host that answers only once
 * the sender has that many requests out, whatever the machine's speed.
 */
export type Answer = number | 'hang' | { status: number; afterMs: number } | { status: number; heldUntil: { inFlight: number; received: number } };

export type CallbackReceiver = {
  url: string;
  received: ReceivedCallback[];
  /** Requests in progress right now, and the most there ever were at once. */
  inFlight(): number;
  peakInFlight(): number;
  /** Answers for a path, used in order; the last one repeats. Unlisted paths answer 204. */
  answer(path: string, ...answers: Answer[]): void;
  /** The secrets callbacks are verified with (the organisation's, as the receiver configured them). */
  setSecrets(secrets: string[]): void;
  close(): Promise<void>;
};

/** A real HTTP receiver on 127.0.0.1 that verifies every callback with WebhookVerifier before reading it (spec 6.4). */
export async function startCallbackReceiver(secrets: string[]): Promise<CallbackReceiver> {
  const verifier = new WebhookVerifier();
  const received: ReceivedCallback[] = [];
  const answers = new Map<string, Answer[]>();
  const hanging = new Set<ServerResponse>();
  const held = new Map<string, Array<() => void>>();
  let current = secrets;
  let inFlight = 0;
  let peak = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    res.on('close', () => {
      inFlight--;
      hanging.delete(res);
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const header = req.headers[WebhookHeader.Signature.toLowerCase()];
      let signatureFailure: string | null = null;
      try {
        verifier.verify({ rawBody, signatureHeader: header, secrets: current });
      } catch (error) {
        if (!(error instanceof WebhookSignatureError)) throw error;
        signatureFailure = error.reason;
      }
      const path = (req.url ?? '/').split('?')[0];
      received.push({
        path,
        receivedAt: Date.now(),
        deliveryId: String(req.headers[WebhookHeader.Delivery.toLowerCase()] ?? ''),
        event: String(req.headers[WebhookHeader.Event.toLowerCase()] ?? ''),
        signatureHeader: String(header ?? ''),
        rawBody,
        signatureFailure,
      });
      if (signatureFailure !== null) {
        res.writeHead(400).end();
        return;
      }
      const queue = answers.get(path);
      const answer = queue && queue.length > 1 ? (queue.shift() as Answer) : (queue?.[0] ?? 204);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      const reply = (status: number): void => {
        res.writeHead(status, status >= 300 && status < 400 ? { Location: '/redirected' } : {}).end();
      };
      if (typeof answer === 'number') reply(answer);
      else if ('heldUntil' in answer) {
        hanging.add(res);
        const waiting = held.get(path) ?? [];
        waiting.push(() => {
          hanging.delete(res);
          if (!res.destroyed) reply(answer.status);
        });
        held.set(path, waiting);
        const receivedHere = received.filter((r) => r.path === path).length;
        if (waiting.length >= answer.heldUntil.inFlight || receivedHere >= answer.heldUntil.received) {
          held.delete(path);
          for (const release of waiting) release();
        }
      } else {
        hanging.add(res);
        setTimeout(() => {
          hanging.delete(res);
          if (!res.destroyed) reply(answer.status);
        }, answer.afterMs);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    inFlight: () => inFlight,
    peakInFlight: () => peak,
    answer: (path, ...list) => answers.set(path, list),
    setSecrets: (next) => {
      current = next;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
