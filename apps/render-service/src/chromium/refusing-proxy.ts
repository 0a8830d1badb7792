import { createServer, Server, Socket } from 'node:net';

/**
 * A local TCP listener that closes every connection at once. Chromium is told to send all its traffic through it
 * (`--proxy-server` with loopback included), so even a request that escaped the host-resolver rules, an IP literal
 * or a WebSocket has nowhere to go. The pool owns the port, so no other program can be listening on it.
 */
export class RefusingProxy {
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server, readonly port: number) {}

  static async start(): Promise<RefusingProxy> {
    const server = createServer();
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        if (address === null || typeof address === 'string') reject(new Error('refusing proxy has no TCP address'));
        else resolve(address.port);
      });
    });
    const proxy = new RefusingProxy(server, port);
    server.on('connection', (socket) => proxy.refuse(socket));
    return proxy;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private refuse(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.destroy();
  }
}
