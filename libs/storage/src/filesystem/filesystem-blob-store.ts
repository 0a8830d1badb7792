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
 * reader sees the old blob or the new one, never half of one; a put that has resolved survives a crash (see put).
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

  /**
   * Durable when it resolves: the blob and its content type are written and flushed to temporary files side by side
   * (one wait for the disk, not two), renamed into place (the content type first, so a reader that sees the blob
   * sees its type), then the directory holding the new names is flushed, and so is the parent of every directory
   * the key created.
   */
  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.fileOf(key);
    const directory = path.dirname(file);
    const created = await mkdir(directory, { recursive: true });
    const written = await Promise.allSettled([this.writeFlushed(Buffer.from(contentType, 'utf8')), this.writeFlushed(body)]);
    const temporaries = written.flatMap((w) => (w.status === 'fulfilled' ? [w.value] : []));
    try {
      for (const w of written) if (w.status === 'rejected') throw w.reason;
      const [typeTemporary, bodyTemporary] = temporaries;
      await rename(typeTemporary, `${file}${CONTENT_TYPE_SUFFIX}`);
      await rename(bodyTemporary, file);
    } catch (error) {
      await Promise.all(temporaries.map((t) => rm(t, { force: true })));
      throw error;
    }
    const directories = [directory];
    if (created !== undefined) {
      for (let d = directory; d !== path.dirname(created); d = path.dirname(d)) directories.push(path.dirname(d));
    }
    await Promise.all(directories.map(flushDirectory));
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

  /** Writes `content` to a new temporary file and flushes it to disk; its path. */
  private async writeFlushed(content: Buffer): Promise<string> {
    const temporary = path.join(this.root, INCOMING_DIR, randomUUID());
    try {
      const handle = await open(temporary, 'wx');
      try {
        await handle.writeFile(content);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return temporary;
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

/** Flushes a directory's entries (names created or renamed into it) to disk. */
async function flushDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
