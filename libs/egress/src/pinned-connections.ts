import http from 'node:http';
import https from 'node:https';

/** The request options `guardedFetch` hands to a pooled agent: the checked addresses the socket may connect to. */
export type PinnedRequestOptions = https.RequestOptions & { pinnedAddresses: string };

export type PinnedConnectionsOptions = {
  /** How long an idle connection stays open for the next request (shorter when the server's Keep-Alive says so). */
  idleTimeoutMs: number;
  /** Idle connections kept per destination and checked addresses; more are closed when their request ends. */
  maxIdlePerDestination: number;
};

/**
 * Kept-alive connections for `guardedFetch`, for a caller that sends many requests to the same destinations (the
 * webhook dispatcher). A connection is reused only for a request to the same origin (and TLS options) whose check
 * returned the same addresses: every request is still checked against the policy first, and the pool is keyed on
 * the checked addresses, so a connection opened to an address checked earlier never serves a request whose check
 * answered differently (DNS rebinding) or was refused. Close it when the caller stops.
 */
export class PinnedConnections {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(options: PinnedConnectionsOptions) {
    const agentOptions = { keepAlive: true, timeout: options.idleTimeoutMs, maxFreeSockets: options.maxIdlePerDestination, scheduling: 'lifo' as const };
    this.httpAgent = new PinnedHttpAgent(agentOptions);
    this.httpsAgent = new PinnedHttpsAgent(agentOptions);
  }

  /** The agent for a request of `protocol` ('http:' or 'https:'). */
  agentFor(protocol: string): http.Agent {
    return protocol === 'https:' ? this.httpsAgent : this.httpAgent;
  }

  /** Closes every connection, idle or in use. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** The pool of a connection: the agent's own key (host, port, TLS options) and the addresses it was checked against. */
function pinnedName(name: string, options: http.ClientRequestArgs | undefined): string {
  const pinned = (options as Partial<PinnedRequestOptions> | undefined)?.pinnedAddresses;
  if (pinned === undefined) throw new Error('a PinnedConnections agent serves guardedFetch only (no checked addresses given)');
  return `${name}|${pinned}`;
}

class PinnedHttpAgent extends http.Agent {
  override getName(options?: http.ClientRequestArgs): string {
    return pinnedName(super.getName(options), options);
  }
}

class PinnedHttpsAgent extends https.Agent {
  override getName(options?: https.RequestOptions): string {
    return pinnedName(super.getName(options), options);
  }
}
