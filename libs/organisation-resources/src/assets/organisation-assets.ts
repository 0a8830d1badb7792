import type { BlobStore } from '@docrender/storage';

/**
 * Organisation assets: images (logos, backgrounds) templates use as `asset:<name>` and PDFs they attach
 * (`attachments[].asset`), stored with the admin CLI, the seed file or the workspace. An asset is one blob,
 * `orgs/<organisation>/assets/<name>`; the render service reads it there
 * (apps/render-service/src/document/image-resolver.ts). Decision records 0013, 0050.
 */

/** Asset names: the same rule as the template DSL's `asset:<name>` (libs/template-dsl/src/render/images.ts). */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/;

/** Why a name cannot be an asset name, or null when it can. */
export function assetNameProblem(name: string): string | null {
  if (!ASSET_NAME.test(name)) return 'must start with a letter or digit and hold up to 200 of A-Z a-z 0-9 . _ / -';
  if (name.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return "must not have an empty, '.' or '..' path segment";
  return null;
}

const assetsPrefix = (organisationId: string): string => `orgs/${organisationId}/assets`;

export function organisationAssetKey(organisationId: string, name: string): string {
  return `${assetsPrefix(organisationId)}/${name}`;
}

/** Image formats a template may embed, recognised by their first bytes (a server's Content-Type is not trusted). */
const SIGNATURES: Array<{ type: string; matches: (b: Buffer) => boolean }> = [
  { type: 'image/png', matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', matches: (b) => /^GIF8[79]a/.test(b.toString('latin1', 0, 6)) },
  { type: 'image/webp', matches: (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP' },
  { type: 'image/avif', matches: (b) => b.toString('latin1', 4, 8) === 'ftyp' && /^avi[fs]/.test(b.toString('latin1', 8, 12)) },
  { type: 'image/svg+xml', matches: (b) => /^(\uFEFF)?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(b.toString('utf8', 0, 1024)) },
];

/** The MIME type of an image file, or null when it is none of PNG, JPEG, GIF, WebP, AVIF, SVG. */
export function sniffImageType(file: Buffer): string | null {
  return SIGNATURES.find((s) => s.matches(file))?.type ?? null;
}

const PDF_SIGNATURE = Buffer.from('%PDF-', 'latin1');

/** The MIME type of an asset file: one of sniffImageType's images, or application/pdf; null for anything else. */
export function sniffAssetType(file: Buffer): string | null {
  return sniffImageType(file) ?? (file.subarray(0, PDF_SIGNATURE.length).equals(PDF_SIGNATURE) ? 'application/pdf' : null);
}

/** The largest asset the store takes: the render service's highest RENDER_IMAGE_MAX_BYTES (its default is 10 MB). */
export const MAX_ASSET_BYTES = 200 * 1024 * 1024;

export class InvalidAssetError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidAssetError';
  }
}

export type StoredAsset = { organisationId: string; name: string; reference: string; contentType: string; bytes: number };

/** Checks an image or PDF and stores it as an organisation asset (replacing one of the same name). */
export async function storeOrganisationAsset(store: BlobStore, organisationId: string, name: string, file: Buffer): Promise<StoredAsset> {
  const problem = assetNameProblem(name);
  if (problem) throw new InvalidAssetError(`the asset name '${name}' ${problem}`);
  if (file.length === 0) throw new InvalidAssetError('the file is empty');
  if (file.length > MAX_ASSET_BYTES) throw new InvalidAssetError(`the file is larger than ${MAX_ASSET_BYTES} bytes`);
  const contentType = sniffAssetType(file);
  if (contentType === null) throw new InvalidAssetError('the file is not a PNG, JPEG, GIF, WebP, AVIF or SVG image, nor a PDF');
  await store.put(organisationAssetKey(organisationId, name), file, contentType);
  return { organisationId, name, reference: `asset:${name}`, contentType, bytes: file.length };
}

export type OrganisationAsset = { name: string; reference: string; contentType: string; bytes: number };

/** A page of an organisation's assets by name; `truncated` when more follow the last one (the next page's `after`). */
export type OrganisationAssetPage = { items: OrganisationAsset[]; truncated: boolean };

/**
 * The organisation's assets by name, a page at a time: the first `limit` (1 to MAX_BLOB_LIST_LIMIT) whose names sort
 * after `after` (any string; from the first when absent). A page costs its own assets, whatever the organisation holds.
 */
export async function listOrganisationAssets(store: BlobStore, organisationId: string, page: { limit: number; after?: string }): Promise<OrganisationAssetPage> {
  const prefix = assetsPrefix(organisationId);
  const listing = await store.list(prefix, { limit: page.limit, after: page.after === undefined ? undefined : `${prefix}/${page.after}` });
  const items = listing.blobs.map((blob) => {
    const name = blob.key.slice(prefix.length + 1);
    return { name, reference: `asset:${name}`, contentType: blob.contentType, bytes: blob.sizeBytes };
  });
  return { items, truncated: listing.truncated };
}

/** Deletes an organisation asset; whether there was one. Templates that still use it get an UnresolvedImage issue. */
export async function removeOrganisationAsset(store: BlobStore, organisationId: string, name: string): Promise<boolean> {
  const problem = assetNameProblem(name);
  if (problem) throw new InvalidAssetError(`the asset name '${name}' ${problem}`);
  const key = organisationAssetKey(organisationId, name);
  const existed = (await store.stat(key)) !== null;
  await store.delete(key);
  return existed;
}
