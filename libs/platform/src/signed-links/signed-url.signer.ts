import { SignedLink, trimBaseUrl } from './signed-link';

/** Where links point and the key they are signed with (PUBLIC_BASE_URL, VIEW_URL_SECRET). */
export type SignedLinkConfig = { publicBaseUrl: string; secret: string };

/** What a signer links to: the path of a resource by its key, and how long a link works (the verifier's cap too). */
export type SignedUrlKind<K> = { path: (key: K) => string; ttlSeconds: number };

/**
 * The one maker of signed links: an absolute link `<PUBLIC_BASE_URL><path>?expires=<unix>&signature=<hmac>` that
 * fetches one resource without the bearer key, for the kind's lifetime from when it was made, and fails when any part
 * is changed or when it claims a longer life than its kind allows. Kinds: a document's PDF (viewUrl, 7 days,
 * ViewUrlSigner) and a version's preview image (1 hour, apps/api-gateway/src/templates/preview-image-link.ts).
 */
export class SignedUrlSigner<K> {
  private readonly link: SignedLink;
  private readonly base: string;

  constructor(
    config: SignedLinkConfig,
    private readonly kind: SignedUrlKind<K>,
  ) {
    this.link = new SignedLink(config.secret);
    this.base = trimBaseUrl(config.publicBaseUrl);
  }

  /** The signed link to `key`'s resource, valid until `now` + the kind's lifetime. */
  sign(key: K, now: Date = new Date()): string {
    const path = this.kind.path(key);
    const { expires, signature } = this.link.sign(path, Math.floor(now.getTime() / 1000) + this.kind.ttlSeconds);
    return `${this.base}${path}?expires=${expires}&signature=${signature}`;
  }

  /** True when `expires` and `signature` (raw query values) are a valid, unexpired link to `key`'s resource at `now`. */
  verify(key: K, expires: unknown, signature: unknown, now: Date = new Date()): boolean {
    return this.link.verify(this.kind.path(key), expires, signature, now, this.kind.ttlSeconds);
  }
}
