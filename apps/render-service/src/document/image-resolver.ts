import { EgressPolicy, guardedFetch } from '@docrender/egress';
import type { Logger } from '@docrender/observability';
import type { BlobStore } from '@docrender/storage';
import { BlobNotFoundError } from '@docrender/storage';
import { organisationAssetKey, sniffImageType } from '@docrender/organisation-resources';
import { ATTACHMENT_LIMITS, type ImageResolution } from '@docrender/template-dsl';

export type ImageLimits = {
  policy: EgressPolicy;
  /** Per image fetch (DNS, connect, transfer), further bounded by the render deadline. */
  fetchTimeoutMs: number;
  maxBytes: number;
};

const ASSET_PREFIX = 'asset:';
/** An organisation asset to attach (template-dsl attachmentAssetReference): any file type, the attachment size limit. */
const ATTACHMENT_ASSET_PREFIX = 'attachment:asset:';
const MAX_REDIRECTS = 3;

/**
 * Turns the image references of a document into data URIs before it is compiled, so the page itself never
 * loads anything: https URLs through the SSRF-guarded fetch (policy, size and time limits; redirects followed
 * up to 3 hops, each hop checked again), organisation assets (`asset:<name>`) from the blob store. A reference
 * that cannot be resolved gets an error text; the template DSL reports it as UnresolvedImage. Organisation assets
 * to attach (`attachment:asset:<name>`) are read the same way, of any type, up to the attachment size limit, and
 * handed back as Base64 data URIs; the DSL reports one that cannot be read as SchemaInvalid, naming the attachment.
 */
export class ImageResolver {
  constructor(
    private readonly blobStore: BlobStore,
    private readonly limits: ImageLimits,
    private readonly logger: Logger,
  ) {}

  async resolveAll(references: readonly string[], organisationId: string, deadline: number): Promise<Map<string, ImageResolution>> {
    const unique = [...new Set(references)];
    const resolved = await Promise.all(unique.map(async (reference) => [reference, await this.resolve(reference, organisationId, deadline)] as const));
    return new Map(resolved);
  }

  private async resolve(reference: string, organisationId: string, deadline: number): Promise<ImageResolution> {
    try {
      if (reference.startsWith(ATTACHMENT_ASSET_PREFIX)) {
        const file = await this.readAsset(organisationId, reference.slice(ATTACHMENT_ASSET_PREFIX.length));
        if (file.length > ATTACHMENT_LIMITS.maxBytes) return { error: `it has ${file.length} bytes, more than the ${ATTACHMENT_LIMITS.maxBytes} an attachment may have` };
        return { dataUri: `data:application/octet-stream;base64,${file.toString('base64')}` };
      }
      const file = reference.startsWith(ASSET_PREFIX)
        ? await this.readAsset(organisationId, reference.slice(ASSET_PREFIX.length))
        : await this.fetch(reference, deadline);
      if (file.length > this.limits.maxBytes) return { error: `the image is larger than ${this.limits.maxBytes} bytes` };
      const type = sniffImageType(file);
      if (type === null) return { error: 'the file is not a PNG, JPEG, GIF, WebP, AVIF or SVG image' };
      return { dataUri: `data:${type};base64,${file.toString('base64')}` };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.info('image not resolved', { reason });
      return { error: reason };
    }
  }

  private async readAsset(organisationId: string, name: string): Promise<Buffer> {
    if (name.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
      throw new Error(`'${name}' is not an asset name`);
    }
    try {
      return await this.blobStore.get(organisationAssetKey(organisationId, name));
    } catch (error) {
      if (error instanceof BlobNotFoundError) throw new Error(`the organisation has no asset named '${name}'`);
      throw error;
    }
  }

  private async fetch(url: string, deadline: number): Promise<Buffer> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const timeoutMs = Math.min(this.limits.fetchTimeoutMs, deadline - Date.now());
      if (timeoutMs <= 0) throw new Error('no time left in the render budget to fetch the image');
      const response = await guardedFetch(current, { policy: this.limits.policy, timeoutMs, maxBytes: this.limits.maxBytes });
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location !== undefined) {
        current = new URL(location, current).toString();
        continue;
      }
      if (response.status !== 200) throw new Error(`the image server answered HTTP ${response.status}`);
      return response.body;
    }
    throw new Error(`more than ${MAX_REDIRECTS} redirects`);
  }
}
