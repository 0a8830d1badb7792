/** The SDK's version, sent in the User-Agent; kept equal to libs/client/package.json by version.spec.ts. */
export const CLIENT_VERSION = '0.1.0';
