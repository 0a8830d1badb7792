import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type StubServer = {
  url: string;
  /** Requests received, in order: method, URL and headers. */
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
};

/**
 * A real HTTP server on 127.0.0.1 answering with `handler` (the n-th request gets n = 0, 1, …), for the failures the
 * service itself cannot be made to produce on demand: stalls, proxies' 502/503/504, undecodable 2xx bodies, 403.
 */
export async function startStubServer(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<StubServer> {
  const requests: StubServer['requests'] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const n = requests.length;
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => handler(req, res, n));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}
