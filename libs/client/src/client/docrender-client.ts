import { HttpTransport } from '../http/http-transport';
import { DEFAULT_RETRY, type RetryOptions } from '../http/retry-policy';
import { emitProcessWarning, environmentOfKey, warnOnProductionKeyInTest, type ClientWarning } from '../keys/api-key-environment';
import type { ClientContext } from '../resources/client-context';
import { DocumentsResource } from '../resources/documents.resource';
import { FontsResource } from '../resources/fonts.resource';
import { JobsResource } from '../resources/jobs.resource';
import { MetaResource } from '../resources/meta.resource';
import { OrganisationResource } from '../resources/organisation.resource';
import { RendersResource } from '../resources/renders.resource';
import { TemplatesResource } from '../resources/templates.resource';
import { CLIENT_VERSION } from '../version';
import type { Environment } from '@docrender/contracts';

export type DocrenderClientOptions = {
  /** The service address, e.g. `https://render.example.com` (a trailing `/v1` or slash is ignored). */
  baseUrl: string;
  /** `service_test_…` or `service_prod_…`: the prefix alone selects the environment (spec part 1). */
  apiKey: string;
  /** Time limit of each attempt of reads, the PATCH and downloads. Default 30 000 ms. */
  timeoutMs?: number;
  /** Time limit of renders, validation, enqueue and preview images. Default 600 000 ms (a batch renders for a while). */
  renderTimeoutMs?: number;
  /** Retry of reads on transient failures; writes are never retried. */
  retry?: RetryOptions;
  /** A fetch implementation (default: the global fetch of Node 20+). */
  fetch?: typeof fetch;
  /** Appended to the User-Agent `docrender-client/<version>`. */
  userAgent?: string;
  /** Receives the SDK's warnings (default: `process.emitWarning`). */
  onWarning?: (warning: ClientWarning) => void;
};

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RENDER_TIMEOUT_MS = 600_000;

/**
 * The client of the document rendering service (interface `/v1`). One instance per base URL; it holds one key at a
 * time, and `useApiKey` switches it (and with it the environment) for every later request.
 *
 * ```ts
 * const client = new DocrenderClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.SERVICE_API_KEY! });
 * const envelope = await client.renders.render(templateId, [{ number: 'INV-1' }]);
 * ```
 */
export class DocrenderClient {
  /** Render, raw-PDF render, stateless render, validate (spec 4.2–4.4). */
  readonly renders: RendersResource;
  /** Asynchronous jobs: enqueue, status, wait (spec 4.5, 4.6). */
  readonly jobs: JobsResource;
  /** Templates, versions, the document-name-template PATCH, preview images (spec 4.7–4.12). */
  readonly templates: TemplatesResource;
  /** Stored documents and their PDFs (spec 4.13–4.15). */
  readonly documents: DocumentsResource;
  /** Font families (spec 4.18). */
  readonly fonts: FontsResource;
  /** Usage and credit (spec 4.16). */
  readonly organisation: OrganisationResource;
  /** The anonymous probes (spec 4.17). */
  readonly meta: MetaResource;

  private apiKey: string;
  private readonly warn: (warning: ClientWarning) => void;

  constructor(options: DocrenderClientOptions) {
    this.warn = options.onWarning ?? emitProcessWarning;
    this.apiKey = checkedKey(options.apiKey);
    warnOnProductionKeyInTest(this.apiKey, process.env, this.warn);
    const fetchImplementation = options.fetch ?? globalThis.fetch;
    if (typeof fetchImplementation !== 'function') throw new TypeError('no fetch implementation: use Node 20+ or pass options.fetch');
    const transport = new HttpTransport({
      baseUrl: normalisedBaseUrl(options.baseUrl),
      apiKey: () => this.apiKey,
      userAgent: `docrender-client/${CLIENT_VERSION} node/${process.versions.node}${options.userAgent ? ` ${options.userAgent}` : ''}`,
      fetch: fetchImplementation,
      retry: { ...DEFAULT_RETRY, ...options.retry },
    });
    const context: ClientContext = {
      transport,
      readTimeoutMs: positive(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs'),
      renderTimeoutMs: positive(options.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS, 'renderTimeoutMs'),
    };
    this.renders = new RendersResource(context);
    this.jobs = new JobsResource(context);
    this.templates = new TemplatesResource(context);
    this.documents = new DocumentsResource(context);
    this.fonts = new FontsResource(context);
    this.organisation = new OrganisationResource(context);
    this.meta = new MetaResource(context);
  }

  /** The environment the current key selects (`test`, `production`), or null for a key with neither prefix. */
  get environment(): Environment | null {
    return environmentOfKey(this.apiKey);
  }

  /**
   * Switches the key for every later request, requests already sent keep theirs. Switching from a test key to a
   * production key makes every later render real and credit-consuming (spec part 1).
   */
  useApiKey(apiKey: string): void {
    this.apiKey = checkedKey(apiKey);
    warnOnProductionKeyInTest(this.apiKey, process.env, this.warn);
  }
}

function checkedKey(key: string): string {
  if (typeof key !== 'string' || key.trim() === '') throw new TypeError('apiKey must be a non-empty string');
  return key.trim();
}

function normalisedBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`baseUrl must be http(s), got ${url.protocol}`);
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '').replace(/\/v1$/, '');
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number of milliseconds, got ${value}`);
  return value;
}
