import { randomUUID } from 'node:crypto';
import type { BlobStore } from '@docrender/storage';

export type FontStyle = 'normal' | 'italic';
export const FONT_FORMATS = ['woff2', 'woff', 'ttf', 'otf'] as const;
export type FontFormat = (typeof FONT_FORMATS)[number];

/** One file of a family (a weight and style) as the catalogue keeps it. */
export type FontFileRecord = { id: string; weight: number; style: FontStyle; format: FontFormat; blobKey: string; fileSizeBytes: number };
export type FontFamilyRecord = { id: string; organisationId: string; family: string; createdAt: Date; files: FontFileRecord[] };
export type NewFontFile = Omit<FontFileRecord, 'id'>;

/**
 * The organisation's font catalogue, as registration needs it (persistence's FontRepository): adds files to the live
 * family of that name, creating it when there is none, and returns the blob keys of the files they replaced.
 */
export interface FontCatalogue {
  addFiles(organisationId: string, family: string, files: readonly NewFontFile[], now?: Date): Promise<{ family: FontFamilyRecord; replacedBlobKeys: string[] }>;
}

const CONTENT_TYPES: Record<FontFormat, string> = { woff2: 'font/woff2', woff: 'font/woff', ttf: 'font/ttf', otf: 'font/otf' };

/** True when `bytes` start the way files of `format` do (TrueType: 0x00010000 or `true`). */
export function matchesFontFormat(bytes: Buffer, format: FontFormat): boolean {
  const magic = bytes.subarray(0, 4).toString('latin1');
  switch (format) {
    case 'woff2':
      return magic === 'wOF2';
    case 'woff':
      return magic === 'wOFF';
    case 'otf':
      return magic === 'OTTO';
    case 'ttf':
      return magic === '\u0000\u0001\u0000\u0000' || magic === 'true';
  }
}

/** The font format a file name's extension names, or null. */
export function fontFormatOf(fileName: string): FontFormat | null {
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  return (FONT_FORMATS as readonly string[]).includes(ext) ? (ext as FontFormat) : null;
}

export type FontFileUpload = { weight: number; style: FontStyle; format: FontFormat; bytes: Buffer };

/**
 * Adds a custom font family of an organisation (or more variants of one): the files go to the blob store, then the
 * rows are written; a file for a variant the family already has replaces it, and the replaced blob is deleted.
 * When writing the rows fails, the blobs just stored are deleted again.
 */
export async function registerFontFamily(
  fonts: FontCatalogue,
  blobs: BlobStore,
  input: { organisationId: string; family: string; files: readonly FontFileUpload[] },
  now: Date = new Date(),
): Promise<FontFamilyRecord> {
  const stored: NewFontFile[] = [];
  try {
    for (const file of input.files) {
      const blobKey = `organisations/${input.organisationId}/fonts/${randomUUID()}.${file.format}`;
      await blobs.put(blobKey, file.bytes, CONTENT_TYPES[file.format]);
      stored.push({ weight: file.weight, style: file.style, format: file.format, blobKey, fileSizeBytes: file.bytes.length });
    }
    const { family, replacedBlobKeys } = await fonts.addFiles(input.organisationId, input.family, stored, now);
    await Promise.all(replacedBlobKeys.map((key) => blobs.delete(key)));
    return family;
  } catch (error) {
    await Promise.allSettled(stored.map((f) => blobs.delete(f.blobKey)));
    throw error;
  }
}
