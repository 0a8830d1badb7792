import { ConfigOf, setting } from './setting';

/** The publicly known development key. Every real deployment sets its own VIEW_URL_SECRET. */
export const DEV_VIEW_URL_SECRET = 'dev-only-view-url-secret-NOT-SECRET-set-VIEW_URL_SECRET';

/**
 * Signed links (docs/api.md: viewUrl under Documents and PDFs, Preview images): where clients reach the gateway, and the HMAC key that makes a
 * link usable without the bearer key. Read by every app that puts a viewUrl into a response or a callback.
 */
export const viewUrlSettings = {
  publicBaseUrl: setting.optionalUrl(
    'PUBLIC_BASE_URL',
    'Base address clients use to reach the API gateway (scheme, host, optional port and path prefix), used in signed links and as the server of the OpenAPI document the gateway serves (Swagger UI\'s Try it out). Unset: links use http://localhost:<PORT>; the served document names the relative server /, the host Swagger UI was loaded from.',
    ['http', 'https'],
  ),
  secret: setting.checkedString(
    'VIEW_URL_SECRET',
    'HMAC-SHA256 key signing viewUrl and preview-image links (at least 16 characters). Changing it invalidates links already handed out. The default is public and for development only.',
    DEV_VIEW_URL_SECRET,
    (value) => (value.length < 16 ? 'must be at least 16 characters long' : null),
  ),
};

export type ViewUrlSettings = ConfigOf<typeof viewUrlSettings>;
