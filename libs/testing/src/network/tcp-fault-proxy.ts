import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (S3, RabbitMQ, PostgreSQL) that a test switches between
 * forwarding and failing, so one process under test loses that dependency while everything else keeps it.
 */
export type TcpFaultProxy = {
  /** Port of the proxy on 127.0.0.1. */
  port: number;
  /** Forward every new connection to the target (the initial mode). */
  forward(): void;
  /** Reset every open connection and every new one: the server seems to have gone away. */
  cut(): void;
  /** Drop every open connection and answer each new one with `bytes`, then close it: a server talking nonsense. */
  answerWith(bytes: string): void;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
};

type Mode = { kind: 'forward' } | { kind: 'cut' } | { kind: 'garbage'; bytes: string };

export async function startTcpFaultProxy(target: { host: string; port: number }): Promise<TcpFaultProxy> {
  let mode: Mode = { kind: 'forward' };
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const dropAll = (): void => {
    for (const socket of sockets) socket.resetAndDestroy();
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode.kind === 'cut') {
      client.resetAndDestroy();
      return;
    }
    if (mode.kind === 'garbage') {
      // Answer once the client has sent its request, as a confused server would.
      const bytes = mode.bytes;
      client.once('data', () => client.end(bytes));
      return;
    }
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    forward: () => {
      mode = { kind: 'forward' };
    },
    cut: () => {
      mode = { kind: 'cut' };
      dropAll();
    },
    answerWith: (bytes) => {
      mode = { kind: 'garbage', bytes };
      dropAll();
    },
    close: async () => {
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
