import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';

/** A request to the blob store on which the server sent nothing for too long. */
export class BlobStoreIdleTimeoutError extends Error {
  constructor(readonly idleTimeoutMs: number) {
    super(`the blob store sent nothing for ${idleTimeoutMs} ms`);
    this.name = 'BlobStoreIdleTimeoutError';
  }
}

/**
 * An HTTP(S) agent (keep-alive) whose sockets end a request the server stops answering: a socket busy with a request
 * that receives nothing for `idleTimeoutMs` is destroyed with BlobStoreIdleTimeoutError, which fails the request (or
 * the response body being read) as any connection error does. A store that accepts connections but never answers is
 * then an outage like a refused connection, not a wait without end. A transfer that keeps moving is never cut; an idle
 * socket in the keep-alive pool is just closed.
 */
export function idleTimeoutAgent(useSSL: boolean, idleTimeoutMs: number): http.Agent {
  const agent = useSSL ? new https.Agent({ keepAlive: true, timeout: idleTimeoutMs }) : new http.Agent({ keepAlive: true, timeout: idleTimeoutMs });
  const busy = new WeakSet<Duplex>();
  const createConnection = agent.createConnection.bind(agent) as (...args: unknown[]) => Duplex;
  agent.createConnection = ((...args: unknown[]) => {
    const socket = createConnection(...args);
    busy.add(socket);
    socket.on('timeout', () => {
      if (busy.has(socket)) socket.destroy(new BlobStoreIdleTimeoutError(idleTimeoutMs));
      else socket.destroy();
    });
    return socket;
  }) as typeof agent.createConnection;
  agent.on('free', (socket: Duplex) => busy.delete(socket));
  const reuseSocket = agent.reuseSocket.bind(agent);
  agent.reuseSocket = (socket, request) => {
    busy.add(socket);
    reuseSocket(socket, request);
  };
  return agent;
}
