import type { CustomFontRef, DataRef } from '@docrender/contracts';
import type { Logger } from '@docrender/observability';
import { sharedBytes } from '@docrender/platform';
import { BlobNotFoundError, BlobStoreUnavailableError, type BlobStore } from '@docrender/storage';
import type { CustomFontFile, ImageResolution } from '@docrender/template-dsl';
import type { DocumentData } from '../compile/compile-task';
import { FontFileCache } from './font-file.cache';
import { ImageResolver } from './image-resolver';
import { TransientFailureError } from './transient-failure.error';

const FONT_MIME: Record<string, string> = { woff2: 'font/woff2', woff: 'font/woff', ttf: 'font/ttf', otf: 'font/otf' };

/**
 * Everything a document is compiled from that lives outside the message: its data (inline, JSON text, or a blob),
 * its images (fetched or organisation assets) and the organisation's custom font files.
 */
export class DocumentSources {
  constructor(
    private readonly blobStore: BlobStore,
    private readonly images: ImageResolver,
    private readonly fonts: FontFileCache,
    private readonly logger: Logger,
  ) {}

  /**
   * The data as it travels to a compile thread: a value, JSON text, or the blob's bytes in shared memory (decoded and
   * parsed on the thread, not here). A blob store outage is thrown as BlobStoreUnavailableError (the caller waits it
   * out); another failure to read as TransientFailureError.
   */
  async readData(ref: DataRef): Promise<DocumentData> {
    if ('inline' in ref) return { value: ref.inline };
    if ('json' in ref) return { text: ref.json };
    if (typeof ref.blobKey !== 'string') throw new Error('the command carries no document data (inline, json or blobKey)');
    try {
      return { bytes: sharedBytes(await this.blobStore.get(ref.blobKey)) };
    } catch (error) {
      if (error instanceof BlobNotFoundError || error instanceof BlobStoreUnavailableError) throw error;
      throw new TransientFailureError(`reading the document data ${ref.blobKey} failed`, error);
    }
  }

  resolveImages(references: readonly string[], organisationId: string, deadline: number): Promise<Map<string, ImageResolution>> {
    return this.images.resolveAll(references, organisationId, deadline);
  }

  /**
   * Font files as data URIs; a file that is missing or unreadable is left out (the DSL then reports UnresolvedFont). A
   * blob store outage is thrown as BlobStoreUnavailableError, for the caller to wait out as it does for the data.
   */
  async readCustomFonts(refs: readonly CustomFontRef[]): Promise<CustomFontFile[]> {
    const files = await Promise.all(
      refs.map(async (ref): Promise<CustomFontFile | null> => {
        try {
          const file = await this.fonts.get(ref.blobKey);
          const mime = FONT_MIME[ref.format.toLowerCase()] ?? 'application/octet-stream';
          return { family: ref.family, weight: ref.weight, style: ref.style, dataUri: `data:${mime};base64,${file.toString('base64')}` };
        } catch (error) {
          // an outage is the caller's to wait out (the render would otherwise print without the family)
          if (error instanceof BlobStoreUnavailableError) throw error;
          this.logger.warn('custom font file not readable', {
            family: ref.family,
            blobKey: ref.blobKey,
            reason: error instanceof Error ? error.message : String(error),
          });
          return null;
        }
      }),
    );
    return files.filter((f): f is CustomFontFile => f !== null);
  }
}
