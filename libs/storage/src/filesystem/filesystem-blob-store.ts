import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { InvalidBlobKeyError, assertValidBlobKey } from '../blob-key';
import { BlobNotFoundError, type BlobInfo, type BlobStore } from '../blob-store';

/** Directory under the root where writes are prepared before their atomic rename (same filesystem). */
const INCOMING_DIR = '.incoming';
/** The content type of `<file>` is kept in `<file>.content-type`. */
const CONTENT_TYPE_SUFFIX = '.content-type';
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** The key (or a prefix of it) names something that is not a file: ENOENT, ENOTDIR, or a directory. */
const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && MISSING_CODES.has(code);
}

/**
 * BlobStore on the local filesystem (one-process mode): the blob of key `a/b.pdf` is the file `<root>/a/b.pdf`, its
 * content type is in `<root>/a/b.pdf.content-type`. Keys are validated (no `..`, no absolute paths) and the resolved
 * path is checked to lie under the root. Writes go to a temporary file, are flushed, then renamed into place, so a
 * reader sees the old blob or the new one, never half of one.
 * Limits: a key may not end in `.content-type` nor start with `.incoming/`; the keys `a` and `a/b` cannot both exist
 * (a file cannot also be a directory); directories emptied by delete are left in place.
 */
export class FilesystemBlobStore implements BlobStore {
  private constructor(private readonly root: string) {}

  /** Opens (creating if needed) the store rooted at `rootDir`, resolved against the working directory. */
  static async open(rootDir: string): Promise<FilesystemBlobStore> {
    const root = path.resolve(rootDir);
    await mkdir(path.join(root, INCOMING_DIR), { recursive: true });
    return new FilesystemBlobStore(root);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    await this.writeAtomically(`${file}${CONTENT_TYPE_SUFFIX}`, Buffer.from(contentType, 'utf8'));
    await this.writeAtomically(file, body);
  }

  async get(key: string): Promise<Buffer> {
    const file = this.fileOf(key);
    try {
      return await readFile(file);
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async getStream(key: string): Promise<Readable> {
    const file = this.fileOf(key);
    try {
      const handle = await open(file, 'r');
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        throw new BlobNotFoundError(key);
      }
      return handle.createReadStream();
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const file = this.fileOf(key);
    let sizeBytes: number;
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      sizeBytes = info.size;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    let contentType = DEFAULT_CONTENT_TYPE;
    try {
      contentType = (await readFile(`${file}${CONTENT_TYPE_SUFFIX}`, 'utf8')) || DEFAULT_CONTENT_TYPE;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    return { key, sizeBytes, contentType };
  }

  async delete(key: string): Promise<void> {
    const file = this.fileOf(key);
    await rm(file, { force: true });
    await rm(`${file}${CONTENT_TYPE_SUFFIX}`, { force: true });
  }

  async ping(): Promise<void> {
    await access(path.join(this.root, INCOMING_DIR), constants.W_OK);
  }

  /** The file of a key, refusing keys that would leave the root or collide with the store's own files. */
  private fileOf(key: string): string {
    assertValidBlobKey(key);
    const segments = key.split('/');
    if (segments[0] === INCOMING_DIR) throw new InvalidBlobKeyError(key, `'${INCOMING_DIR}/' is reserved by the filesystem store`);
    if (key.endsWith(CONTENT_TYPE_SUFFIX)) throw new InvalidBlobKeyError(key, `'${CONTENT_TYPE_SUFFIX}' keys are reserved by the filesystem store`);
    const file = path.resolve(this.root, ...segments);
    if (!file.startsWith(this.root + path.sep)) throw new InvalidBlobKeyError(key, 'resolves outside the blob directory');
    return file;
  }

  private async writeAtomically(target: string, content: Buffer): Promise<void> {
    const temporary = path.join(this.root, INCOMING_DIR, randomUUID());
    try {
      const handle = await open(temporary, 'wx');
      try {
        await handle.writeFile(content);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
