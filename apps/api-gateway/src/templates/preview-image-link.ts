import { Settings } from '@docrender/config';
import { signedLinkConfig, SignedUrlSigner, type SignedUrlKind } from '@docrender/platform';

/** A version's preview image. */
export type PreviewImageKey = { templateId: string; versionNumber: number };

/** How long a preview-image link works (spec 2.13 "time-limited link"). */
export const PREVIEW_IMAGE_URL_TTL_SECONDS = 60 * 60;

/**
 * Spec 4.12: the `{ url }` of a preview image is an absolute link to the PNG, signed like viewUrl (same key, bound to
 * this path) and valid for an hour. It works without the bearer key, so it can be used as an <img src>.
 */
export const previewImageLink: SignedUrlKind<PreviewImageKey> = {
  path: ({ templateId, versionNumber }) => `/v1/templates/${encodeURIComponent(templateId)}/versions/${versionNumber}/preview-image/file`,
  ttlSeconds: PREVIEW_IMAGE_URL_TTL_SECONDS,
};

/** The injection token of the preview-image links' SignedUrlSigner. */
export const PREVIEW_IMAGE_LINKS = Symbol('PreviewImageLinks');

export const previewImageLinksProvider = {
  provide: PREVIEW_IMAGE_LINKS,
  useFactory: (settings: Settings): SignedUrlSigner<PreviewImageKey> => new SignedUrlSigner(signedLinkConfig(settings), previewImageLink),
  inject: [Settings],
};
