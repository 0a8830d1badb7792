import { Limits } from '@docrender/contracts';
import { gatewaySettings, loadSettings, viewUrlSettings } from '@docrender/config';
import { SignedLink, trimBaseUrl } from './signed-link';

/** Where links point and the key they are signed with (PUBLIC_BASE_URL, VIEW_URL_SECRET). */
export type SignedLinkConfig = { publicBaseUrl: string; secret: string };

/** The signed-link configuration from the environment: PUBLIC_BASE_URL (default http://localhost:<PORT>) and VIEW_URL_SECRET. */
export function signedLinkConfigFromEnv(env: NodeJS.ProcessEnv = process.env): SignedLinkConfig {
  const settings = loadSettings(viewUrlSettings, env);
  const publicBaseUrl = settings.publicBaseUrl ?? `http://localhost:${loadSettings(gatewaySettings, env).port}`;
  return { publicBaseUrl: trimBaseUrl(publicBaseUrl), secret: settings.secret };
}

/** The path a document's PDF is downloaded from (spec 4.15). */
export const documentFilePath = (documentId: string): string => `/v1/documents/${encodeURIComponent(documentId)}/file`;

/**
 * Spec 2.4 viewUrl: an absolute link `<PUBLIC_BASE_URL>/v1/documents/<id>/file?expires=<unix>&signature=<hmac>` that
 * downloads the PDF without the bearer key, for 7 days from when it was made, and fails when any part is changed.
 * A document whose PDF was purged has no link (the empty string): callers decide that from isPdfDeleted.
 */
export class ViewUrlSigner {
  private readonly link: SignedLink;
  private readonly base: string;

  constructor(config: SignedLinkConfig) {
    this.link = new SignedLink(config.secret);
    this.base = trimBaseUrl(config.publicBaseUrl);
  }

  /** The signed link for the document, valid until `now` + 7 days. */
  sign(documentId: string, now: Date = new Date()): string {
    const path = documentFilePath(documentId);
    const { expires, signature } = this.link.sign(path, Math.floor(now.getTime() / 1000) + Limits.viewUrlTtlSeconds);
    return `${this.base}${path}?expires=${expires}&signature=${signature}`;
  }

  /** The metadata's viewUrl: the signed link, or '' when the PDF was purged (spec 2.4). */
  viewUrlOf(document: { id: string; isPdfDeleted: boolean }, now: Date = new Date()): string {
    return document.isPdfDeleted ? '' : this.sign(document.id, now);
  }

  /** True when `expires` and `signature` (raw query values) are a valid, unexpired link for this document at `now`. */
  verify(documentId: string, expires: unknown, signature: unknown, now: Date = new Date()): boolean {
    return this.link.verify(documentFilePath(documentId), expires, signature, now);
  }
}
