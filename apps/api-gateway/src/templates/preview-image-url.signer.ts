import { SignedLink, trimBaseUrl } from '@docrender/platform';
import type { SignedLinkConfig } from '@docrender/platform';

/** How long a preview-image link works (spec 2.13 "time-limited link"). */
export const PREVIEW_IMAGE_URL_TTL_SECONDS = 60 * 60;

/** The path a version's preview PNG is downloaded from with a signed link. */
export const previewImageFilePath = (templateId: string, versionNumber: number): string =>
  `/v1/templates/${encodeURIComponent(templateId)}/versions/${versionNumber}/preview-image/file`;

/**
 * Spec 4.12: the `{ url }` of a preview image is an absolute link to the PNG, signed like viewUrl (same key, bound to
 * this path) and valid for an hour. It works without the bearer key, so it can be used as an <img src>.
 */
export class PreviewImageUrlSigner {
  private readonly link: SignedLink;
  private readonly base: string;

  constructor(config: SignedLinkConfig) {
    this.link = new SignedLink(config.secret);
    this.base = trimBaseUrl(config.publicBaseUrl);
  }

  sign(templateId: string, versionNumber: number, now: Date = new Date()): string {
    const path = previewImageFilePath(templateId, versionNumber);
    const { expires, signature } = this.link.sign(path, Math.floor(now.getTime() / 1000) + PREVIEW_IMAGE_URL_TTL_SECONDS);
    return `${this.base}${path}?expires=${expires}&signature=${signature}`;
  }

  verify(templateId: string, versionNumber: number, expires: unknown, signature: unknown, now: Date = new Date()): boolean {
    return this.link.verify(previewImageFilePath(templateId, versionNumber), expires, signature, now);
  }
}
