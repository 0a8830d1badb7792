import dns from 'node:dns';
import dnsPromises from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { TLSSocket } from 'node:tls';
import net, { AddressInfo } from 'node:net';
import { EgressFailedError, EgressFailure, EgressRefusal, EgressRefusedError } from './egress.error';
import { guardedFetch, GuardedFetchOptions } from './guarded-fetch';
import { PinnedConnections } from './pinned-connections';

type Seen = { method: string; url: string; host: string; body: string; contentLength: string | undefined };

/** A real HTTP server on loopback that records what reaches it. */
async function startServer(handler: http.RequestListener, host = '127.0.0.1', port = 0) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        host: req.headers.host ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        contentLength: req.headers['content-length'],
      });
      handler(req, res);
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return {
    seen,
    /** TCP connections accepted so far. */
    connections: () => connections,
    port: address.port,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type TestServer = Awaited<ReturnType<typeof startServer>>;

/** The URL of a loopback port that has just stopped listening: a connection to it is refused. */
async function refusingUrl(): Promise<string> {
  const server = await startServer((_req, res) => res.end());
  await server.close();
  return server.url;
}

const open = { allowHttp: true, allowPrivate: true };
const options = (extra: Partial<GuardedFetchOptions> = {}): GuardedFetchOptions => ({ policy: open, timeoutMs: 5000, maxBytes: 1024, ...extra });

async function failureOf(promise: Promise<unknown>): Promise<EgressFailedError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (outcome instanceof EgressFailedError) return outcome;
  throw new Error(`expected an EgressFailedError, got ${String(outcome)}`);
}

describe('guardedFetch', () => {
  const servers: TestServer[] = [];
  const serve = async (handler: http.RequestListener, host?: string, port?: number) => {
    const s = await startServer(handler, host, port);
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('fetches from a local server when allowPrivate is true', async () => {
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'x-answer': '42' }).end('hello'));
    const response = await guardedFetch(`${server.url}/img.png?x=1`, options());
    expect(response.status).toBe(200);
    expect(response.headers['x-answer']).toBe('42');
    expect(response.body.toString()).toBe('hello');
    expect(server.seen).toEqual([{ method: 'GET', url: '/img.png?x=1', host: `127.0.0.1:${server.port}`, body: '', contentLength: undefined }]);
  });

  it('sends method, headers and body with a Content-Length (a webhook POST)', async () => {
    const server = await serve((req, res) => res.writeHead(204, { 'x-got': String(req.headers['x-service-event']) }).end());
    const body = '{"jobId":"j","note":"Zürich"}';
    const response = await guardedFetch(`${server.url}/hook`, options({ method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Service-Event': 'render.completed' }, body }));
    expect(response.status).toBe(204);
    expect(response.headers['x-got']).toBe('render.completed');
    expect(server.seen[0]).toMatchObject({ method: 'POST', body, contentLength: String(Buffer.byteLength(body)) });
  });

  it('refuses the same local server when allowPrivate is false, without sending anything', async () => {
    const server = await serve((_req, res) => res.end('should not be reached'));
    const error: unknown = await guardedFetch(server.url, options({ policy: { allowHttp: true, allowPrivate: false } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressRefusedError);
    expect((error as EgressRefusedError).reason).toBe(EgressRefusal.AddressNotAllowed);
    expect((error as EgressRefusedError).address?.class).toBe('loopback');
    expect(server.seen).toHaveLength(0);
  });

  it('refuses http when allowHttp is false, without sending anything', async () => {
    const server = await serve((_req, res) => res.end('should not be reached'));
    const error: unknown = await guardedFetch(server.url, options({ policy: { allowHttp: false, allowPrivate: true } })).catch((e: unknown) => e);
    expect((error as EgressRefusedError).reason).toBe(EgressRefusal.SchemeNotAllowed);
    expect(server.seen).toHaveLength(0);
  });

  it('never follows a redirect: the 3xx comes back as is', async () => {
    const elsewhere = await serve((_req, res) => res.end('followed'));
    const server = await serve((_req, res) => res.writeHead(302, { location: `${elsewhere.url}/target` }).end());
    const response = await guardedFetch(server.url, options());
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${elsewhere.url}/target`);
    expect(elsewhere.seen).toHaveLength(0);
  });

  it('accepts a body of exactly maxBytes', async () => {
    const server = await serve((_req, res) => res.end(Buffer.alloc(1024, 1)));
    expect((await guardedFetch(server.url, options({ maxBytes: 1024 }))).body).toHaveLength(1024);
  });

  it('aborts when Content-Length declares more than maxBytes', async () => {
    const server = await serve((_req, res) => res.writeHead(200, { 'content-length': '4096' }).end(Buffer.alloc(4096)));
    const error = await failureOf(guardedFetch(server.url, options({ maxBytes: 1024 })));
    expect(error.reason).toBe(EgressFailure.ResponseTooLarge);
    expect(error.message).toContain('1024');
  });

  it('a HEAD answer may declare a Content-Length above maxBytes (it carries no body)', async () => {
    const server = await serve((_req, res) => res.writeHead(200, { 'content-length': '4096' }).end());
    const response = await guardedFetch(server.url, options({ method: 'HEAD', maxBytes: 1024 }));
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(0);
  });

  it('aborts a chunked body once it exceeds maxBytes, without reading it all', async () => {
    let written = 0;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }); // no Content-Length: chunked
      const timer = setInterval(() => {
        if (res.destroyed || written > 1024 * 1024) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write(Buffer.alloc(512));
        written += 512;
      }, 1);
    });
    const error = await failureOf(guardedFetch(server.url, options({ maxBytes: 2000 })));
    expect(error.reason).toBe(EgressFailure.ResponseTooLarge);
    expect(written).toBeLessThan(1024 * 1024);
  });

  it('times out when the server never answers', async () => {
    const server = await serve(() => undefined);
    const error = await failureOf(guardedFetch(server.url, options({ timeoutMs: 200 })));
    expect(error.reason).toBe(EgressFailure.Timeout);
    expect(server.seen).toHaveLength(1);
  });

  it('times out when the headers arrive but the body never completes (one deadline for the whole exchange)', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    });
    const error = await failureOf(guardedFetch(server.url, options({ timeoutMs: 300 })));
    expect(error.reason).toBe(EgressFailure.Timeout);
  });

  it('the deadline covers a slow DNS lookup, and nothing is sent once it has passed', async () => {
    const server = await serve((_req, res) => res.end('too late'));
    let lookupDone!: () => void;
    const lookupFinished = new Promise<void>((resolve) => (lookupDone = resolve));
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      lookupDone();
      return [{ address: '127.0.0.1', family: 4 }];
    };
    jest.spyOn(dnsPromises, 'lookup').mockImplementation(slow as unknown as typeof dnsPromises.lookup);
    const error = await failureOf(guardedFetch(`http://slow-dns.test:${server.port}/`, options({ timeoutMs: 100 })));
    expect(error.reason).toBe(EgressFailure.Timeout);
    await lookupFinished;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.seen).toHaveLength(0);
  });

  it('reports a refused connection as ConnectionFailed', async () => {
    expect((await failureOf(guardedFetch(await refusingUrl(), options()))).reason).toBe(EgressFailure.ConnectionFailed);
  });

  it('connects only to the address that was checked (DNS rebinding: a second lookup would answer differently)', async () => {
    const checked = await serve((_req, res) => res.end('checked address'), '127.0.0.1');
    const rebound = await serve((_req, res) => res.end('rebound address'), '127.0.0.2', checked.port);
    let lookups = 0;
    const answer = () => (lookups++ === 0 ? '127.0.0.1' : '127.0.0.2');
    const fakePromises = async (host: string) => {
      if (host !== 'rebind.test') throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return [{ address: answer(), family: 4 }];
    };
    jest.spyOn(dnsPromises, 'lookup').mockImplementation(fakePromises as unknown as typeof dnsPromises.lookup);
    const fakeCallback = (host: string, opts: dns.LookupOptions | ((...args: unknown[]) => void), cb?: (...args: unknown[]) => void) => {
      const callback = (typeof opts === 'function' ? opts : cb) as (...args: unknown[]) => void;
      const address = answer();
      if (typeof opts === 'object' && opts.all) callback(null, [{ address, family: 4 }]);
      else callback(null, address, 4);
      void host;
    };
    jest.spyOn(dns, 'lookup').mockImplementation(fakeCallback as unknown as typeof dns.lookup);

    const response = await guardedFetch(`http://rebind.test:${checked.port}/`, options());
    expect(response.body.toString()).toBe('checked address');
    expect(checked.seen).toEqual([expect.objectContaining({ host: `rebind.test:${checked.port}` })]);
    expect(rebound.seen).toHaveLength(0);
    expect(lookups).toBe(1);
  });

  describe('https through a pinned address', () => {
    const cert = readFileSync(path.join(__dirname, 'fixtures/pinned-test.cert.pem'));
    const key = readFileSync(path.join(__dirname, 'fixtures/pinned-test.key.pem'));
    let tlsServer: https.Server;
    let port: number;
    const servernames: (string | false | null)[] = [];

    beforeEach(async () => {
      tlsServer = https.createServer({ cert, key }, (req, res) => {
        servernames.push((req.socket as TLSSocket).servername);
        res.end(`host=${req.headers.host}`);
      });
      await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
      port = (tlsServer.address() as AddressInfo).port;
      const fake = async (host: string) => {
        if (host !== 'pinned.test' && host !== 'other.test') throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
        return [{ address: '127.0.0.1', family: 4 }];
      };
      jest.spyOn(dnsPromises, 'lookup').mockImplementation(fake as unknown as typeof dnsPromises.lookup);
    });
    afterEach(async () => {
      tlsServer.closeAllConnections();
      await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
      servernames.length = 0;
    });

    it('keeps the host name for SNI, the Host header and certificate verification', async () => {
      const response = await guardedFetch(`https://pinned.test:${port}/`, options({ policy: { allowHttp: false, allowPrivate: true }, ca: cert }));
      expect(response.body.toString()).toBe(`host=pinned.test:${port}`);
      expect(servernames).toEqual(['pinned.test']);
    });

    it('verifies the certificate: a name the certificate does not cover fails', async () => {
      const error = await failureOf(guardedFetch(`https://other.test:${port}/`, options({ policy: { allowHttp: false, allowPrivate: true }, ca: cert })));
      expect(error.reason).toBe(EgressFailure.ConnectionFailed);
      expect(error.message).toMatch(/other\.test|altnames/);
    });

    it('a kept-alive connection verified for one host name never serves another name at the same address', async () => {
      const pool = new PinnedConnections({ idleTimeoutMs: 5000, maxIdlePerDestination: 4 });
      try {
        const tls = { policy: { allowHttp: false, allowPrivate: true }, ca: cert, connections: pool };
        expect((await guardedFetch(`https://pinned.test:${port}/`, options(tls))).body.toString()).toBe(`host=pinned.test:${port}`);
        const error = await failureOf(guardedFetch(`https://other.test:${port}/`, options(tls)));
        expect(error.message).toMatch(/other\.test|altnames/);
        expect(servernames).toEqual(['pinned.test']);
      } finally {
        pool.close();
      }
    });

    it('verifies the certificate: an untrusted issuer fails (default CA list)', async () => {
      const error = await failureOf(guardedFetch(`https://pinned.test:${port}/`, options({ policy: { allowHttp: false, allowPrivate: true } })));
      expect(error.reason).toBe(EgressFailure.ConnectionFailed);
    });
  });

  describe('with kept-alive connections (PinnedConnections)', () => {
    let pool: PinnedConnections;
    beforeEach(() => {
      pool = new PinnedConnections({ idleTimeoutMs: 5000, maxIdlePerDestination: 4 });
    });
    afterEach(() => pool.close());
    const pooled = (extra: Partial<GuardedFetchOptions> = {}) => options({ connections: pool, ...extra });

    it('requests to the same destination reuse one connection', async () => {
      const server = await serve((_req, res) => res.writeHead(204).end());
      for (let i = 0; i < 3; i++) expect((await guardedFetch(`${server.url}/hook`, pooled({ method: 'POST', body: `{"n":${i}}` }))).status).toBe(204);
      expect(server.seen.map((r) => r.body)).toEqual(['{"n":0}', '{"n":1}', '{"n":2}']);
      expect(server.connections()).toBe(1);
    });

    it('every request is checked again: a destination refused now is refused although a connection to it is open', async () => {
      const server = await serve((_req, res) => res.end('reached'));
      expect((await guardedFetch(server.url, pooled())).body.toString()).toBe('reached');
      const error: unknown = await guardedFetch(server.url, pooled({ policy: { allowHttp: true, allowPrivate: false } })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EgressRefusedError);
      expect(server.seen).toHaveLength(1);
    });

    it('a connection opened to an address checked earlier never serves a request whose check answered another (DNS rebinding)', async () => {
      const first = await serve((_req, res) => res.end('first address'), '127.0.0.1');
      const second = await serve((_req, res) => res.end('second address'), '127.0.0.2', first.port);
      let lookups = 0;
      const fake = async (host: string) => {
        if (host !== 'rebind.test') throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
        return [{ address: lookups++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
      };
      jest.spyOn(dnsPromises, 'lookup').mockImplementation(fake as unknown as typeof dnsPromises.lookup);
      const url = `http://rebind.test:${first.port}/`;
      expect((await guardedFetch(url, pooled())).body.toString()).toBe('first address');
      expect((await guardedFetch(url, pooled())).body.toString()).toBe('second address');
      expect([first.seen.length, second.seen.length]).toEqual([1, 1]);
    });

    it('a kept-alive connection the server closed while idle: the request goes once more over a new connection', async () => {
      // A raw server: answers the first request of a connection with keep-alive, resets the connection on the second
      // (as a server whose idle timeout fired just as the request was written), answers on a new connection.
      let accepted = 0;
      const requests: number[] = [];
      const raw = net.createServer((socket) => {
        const connection = ++accepted;
        let buffered = '';
        let answered = 0;
        socket.on('data', (chunk: Buffer) => {
          buffered += chunk.toString('latin1');
          while (buffered.includes('\r\n\r\n')) {
            buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
            requests.push(connection);
            if (answered++ === 0) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
            else socket.resetAndDestroy();
          }
        });
      });
      await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/`;
        expect((await guardedFetch(url, pooled())).status).toBe(200);
        expect((await guardedFetch(url, pooled())).body.toString()).toBe('ok');
        expect(requests).toEqual([1, 1, 2]);
      } finally {
        await new Promise<void>((resolve) => raw.close(() => resolve()));
      }
    });

    it('a request that fails on a new connection is not sent again', async () => {
      expect((await failureOf(guardedFetch(await refusingUrl(), pooled()))).reason).toBe(EgressFailure.ConnectionFailed);
    });
  });

  it('refuses nonsensical limits', async () => {
    await expect(guardedFetch('http://127.0.0.1/', options({ timeoutMs: 0 }))).rejects.toThrow(RangeError);
    await expect(guardedFetch('http://127.0.0.1/', options({ maxBytes: -1 }))).rejects.toThrow(RangeError);
  });
});
