import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { JsonLogger } from '@docrender/observability';
import { sniffImageType } from '@docrender/organisation-resources';
import { BlobInfo, BlobNotFoundError, BlobStore } from '@docrender/storage';
import { ImageResolver } from './image-resolver';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
/** A file to attach: no image, and larger than the image limit the tests' resolver has (2048 bytes). */
const TERMS = Buffer.from('Terms of payment. '.repeat(200));
const logger = new JsonLogger('render-service-test', 'error', {}, () => undefined);

class AssetStore implements Pick<BlobStore, 'get'> {
  constructor(private readonly blobs: Record<string, Buffer>) {}
  async get(key: string): Promise<Buffer> {
    const blob = this.blobs[key];
    if (blob === undefined) throw new BlobNotFoundError(key);
    return blob;
  }
  async getStream(key: string): Promise<Readable> {
    return Readable.from(await this.get(key));
  }
  async stat(): Promise<BlobInfo | null> {
    return null;
  }
}

describe('template images are fetched before compiling (real HTTP listener, SSRF guard)', () => {
  let server: Server;
  let origin: string;
  const hits: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      hits.push(request.url ?? '');
      switch (request.url ?? '') {
        case '/logo.png':
          response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(PNG);
          return;
        case '/logo.svg':
          response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG);
          return;
        case '/moved':
          response.writeHead(302, { location: '/logo.png' }).end();
          return;
        case '/loop':
          response.writeHead(302, { location: '/loop' }).end();
          return;
        case '/page.html':
          response.writeHead(200, { 'content-type': 'image/png' }).end('<html>not an image</html>');
          return;
        case '/huge.png':
          response.writeHead(200).end(Buffer.concat([PNG, Buffer.alloc(4096)]));
          return;
        default:
          response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const resolver = (policy: { allowHttp: boolean; allowPrivate: boolean }, maxBytes = 2048) =>
    new ImageResolver(
      new AssetStore({ 'orgs/org-1/assets/brand/logo.png': PNG, 'orgs/org-1/assets/legal/terms.txt': TERMS }) as unknown as BlobStore,
      { policy, fetchTimeoutMs: 2000, maxBytes },
      logger,
    );

  it('7.3: fetched images and organisation assets become data URIs typed by their bytes; failures become reasons for UnresolvedImage', async () => {
    const open = resolver({ allowHttp: true, allowPrivate: true });
    const refs = [
      `${origin}/logo.png`,
      `${origin}/logo.svg`,
      `${origin}/moved`,
      'asset:brand/logo.png',
      'asset:brand/missing.png',
      'asset:../other-org/secret.png',
      `${origin}/page.html`,
      `${origin}/huge.png`,
      `${origin}/missing.png`,
      `${origin}/loop`,
    ];
    const resolved = await open.resolveAll(refs, 'org-1', Date.now() + 10_000);
    const png = `data:image/png;base64,${PNG.toString('base64')}`;
    expect(resolved.get(`${origin}/logo.png`)).toEqual({ dataUri: png });
    expect(resolved.get(`${origin}/logo.svg`)).toEqual({ dataUri: `data:image/svg+xml;base64,${SVG.toString('base64')}` });
    expect(resolved.get(`${origin}/moved`)).toEqual({ dataUri: png });
    expect(resolved.get('asset:brand/logo.png')).toEqual({ dataUri: png });
    expect(resolved.get('asset:brand/missing.png')).toEqual({ error: "the organisation has no asset named 'brand/missing.png'" });
    expect(resolved.get('asset:../other-org/secret.png')).toEqual({ error: "'../other-org/secret.png' is not an asset name" });
    expect(resolved.get(`${origin}/page.html`)).toEqual({ error: 'the file is not a PNG, JPEG, GIF, WebP, AVIF or SVG image' });
    expect(resolved.get(`${origin}/huge.png`)).toMatchObject({ error: expect.stringMatching(/2048/) });
    expect(resolved.get(`${origin}/missing.png`)).toEqual({ error: 'the image server answered HTTP 404' });
    expect(resolved.get(`${origin}/loop`)).toEqual({ error: 'more than 3 redirects' });
  });

  it('issue 34 item 2: organisation assets to attach are read whatever their type, up to the attachment limit, unsniffed', async () => {
    const resolved = await resolver({ allowHttp: false, allowPrivate: false }).resolveAll(
      ['attachment:asset:legal/terms.txt', 'attachment:asset:legal/gone.txt', 'attachment:asset:../org-2/terms.txt'],
      'org-1',
      Date.now() + 10_000,
    );
    expect(resolved.get('attachment:asset:legal/terms.txt')).toEqual({ dataUri: `data:application/octet-stream;base64,${TERMS.toString('base64')}` });
    expect(resolved.get('attachment:asset:legal/gone.txt')).toEqual({ error: "the organisation has no asset named 'legal/gone.txt'" });
    expect(resolved.get('attachment:asset:../org-2/terms.txt')).toEqual({ error: "'../org-2/terms.txt' is not an asset name" });
  });

  it('the SSRF policy refuses private addresses and plain http before anything is sent', async () => {
    hits.length = 0;
    const resolved = await resolver({ allowHttp: false, allowPrivate: false }).resolveAll(
      [`${origin}/logo.png`, `https://127.0.0.1:${new URL(origin).port}/logo.png`],
      'org-1',
      Date.now() + 10_000,
    );
    expect([...resolved.values()].every((r) => 'error' in r)).toBe(true);
    expect(hits).toEqual([]);
  });

  it('8: no fetch starts once the render deadline has passed', async () => {
    hits.length = 0;
    const resolved = await resolver({ allowHttp: true, allowPrivate: true }).resolveAll([`${origin}/logo.png`], 'org-1', Date.now() - 1);
    expect(resolved.get(`${origin}/logo.png`)).toEqual({ error: 'no time left in the render budget to fetch the image' });
    expect(hits).toEqual([]);
  });

  it('recognises image formats by their first bytes', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('image/svg+xml');
    expect(sniffImageType(Buffer.from('<html><svg></svg></html>'))).toBeNull();
  });
});
