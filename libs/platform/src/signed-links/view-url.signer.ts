import { Limits } from '@docrender/contracts';
import { gatewaySettings, type Settings, viewUrlSettings } from '@docrender/config';
import { trimBaseUrl } from './signed-link';
import { SignedUrlSigner, type SignedLinkConfig, type SignedUrlKind } from './signed-url.signer';

/** The signed-link configuration from the process's settings: PUBLIC_BASE_URL (default http://localhost:<PORT>) and VIEW_URL_SECRET. */
export function signedLinkConfig(settings: Settings): SignedLinkConfig {
  const viewUrl = settings.get(viewUrlSettings);
  const publicBaseUrl = viewUrl.publicBaseUrl ?? `http://localhost:${settings.get(gatewaySettings).port}`;
  return { publicBaseUrl: trimBaseUrl(publicBaseUrl), secret: viewUrl.secret };
}

/** The path a document's PDF is downloaded from (spec 4.15). */
export const documentFilePath = (documentId: string): string => `/v1/documents/${encodeURIComponent(documentId)}/file`;

/** Spec 2.4: a viewUrl links to a document's PDF (by its id) for 7 days. */
export const viewUrlLink: SignedUrlKind<string> = { path: documentFilePath, ttlSeconds: Limits.viewUrlTtlSeconds };

/**
 * Spec 2.4 viewUrl: an absolute link `<PUBLIC_BASE_URL>/v1/documents/<id>/file?expires=<unix>&signature=<hmac>` that
 * downloads the PDF without the bearer key, for 7 days from when it was made, and fails when any part is changed.
 * A document whose PDF was purged has no link (the empty string): callers decide that from isPdfDeleted.
 */
export class ViewUrlSigner extends SignedUrlSigner<string> {
  constructor(config: SignedLinkConfig) {
    super(config, viewUrlLink);
  }

  /** The metadata's viewUrl: the signed link, or '' when the PDF was purged (spec 2.4). */
  viewUrlOf(document: { id: string; isPdfDeleted: boolean }, now: Date = new Date()): string {
    return document.isPdfDeleted ? '' : this.sign(document.id, now);
  }
}
