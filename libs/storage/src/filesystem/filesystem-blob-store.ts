import { randomUUID } from 'node:crypto';
import { constants, type Dirent } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { InvalidBlobKeyError, assertValidBlobKey } from '../blob-key';
import { assertListLimit, BlobNotFoundError, type BlobInfo, type BlobListing, type BlobListPage, type BlobStore } from '../blob-store';

/** Directory under the root where writes are prepared before their atomic rename (same filesystem). */
const INCOMING_DIR = '.incoming';
/** The content type of `<file>` is kept in `<file>.content-type`, unless its extension implies it. */
const CONTENT_TYPE_SUFFIX = '.content-type';
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** What the service mostly stores: for these a blob is one file, with no content-type file beside it. */
const IMPLIED_CONTENT_TYPES = new Map([
  ['.pdf', 'application/pdf'],
  ['.png', 'image/png'],
  ['.json', 'application/json'],
]);

/** Directories a store remembers as existing unless told otherwise (a few hundred kB of paths at most). */
const REMEMBERED_DIRECTORIES = 4096;

/** The key (or a prefix of it) names something that is not a file: ENOENT, ENOTDIR, or a directory. */
const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && MISSING_CODES.has(code);
}

/**
 * BlobStore on the local filesystem (one-process mode): the blob of key `a/b.pdf` is the file `<root>/a/b.pdf`, its
 * content type is the one its extension implies (`.pdf`, `.png`, `.json`) or else in `<root>/a/b.pdf.content-type`
 * (a file with neither reads as application/octet-stream). Keys are validated (no `..`, no absolute paths) and the resolved
 * path is checked to lie under the root. Writes go to a temporary file, are flushed, then renamed into place, so a
 * reader sees the old blob or the new one, never half of one; a put that has resolved survives a crash (see put).
 * Limits: a key may not end in `.content-type` nor start with `.incoming/`; the keys `a` and `a/b` cannot both exist
 * (a file cannot also be a directory); directories emptied by delete are left in place.
 */
export class FilesystemBlobStore implements BlobStore {
  /**
   * Directories this store has created or written into: a put into one of them does not create it again. At most
   * `rememberedDirectories`, the oldest forgotten first: keys may name a new directory per request (a transient PDF's
   * `transient/<requestId>/`), and a forgotten directory costs only its creation again.
   */
  private readonly knownDirectories = new Set<string>();

  private constructor(
    private readonly root: string,
    private readonly rememberedDirectories: number,
  ) {}

  /**
   * Opens (creating if needed) the store rooted at `rootDir`, resolved against the working directory;
   * `rememberedDirectories` bounds the directories it remembers as existing.
   */
  static async open(rootDir: string, options: { rememberedDirectories?: number } = {}): Promise<FilesystemBlobStore> {
    const root = path.resolve(rootDir);
    await mkdir(path.join(root, INCOMING_DIR), { recursive: true });
    return new FilesystemBlobStore(root, options.rememberedDirectories ?? REMEMBERED_DIRECTORIES);
  }

  /** How many directories the store remembers as existing (see knownDirectories). */
  get knownDirectoryCount(): number {
    return this.knownDirectories.size;
  }

  /**
   * Durable when it resolves: the blob (and its content type, when the extension does not imply it) is written and
   * flushed to a temporary file (two side by side: one wait for the disk, not two), renamed into place (the content
   * type first, so a reader that sees the blob sees its type), then the directory holding the new names is flushed,
   * and so is the parent of every directory the key created. A directory the store already knows is not created
   * again (one file system call fewer per document); if it has gone since, it is created and the put goes on.
   */
  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.fileOf(key);
    const directory = path.dirname(file);
    const typeFile = `${file}${CONTENT_TYPE_SUFFIX}`;
    const typeImplied = IMPLIED_CONTENT_TYPES.get(path.extname(file).toLowerCase()) === contentType;
    const known = this.knownDirectories.has(directory);
    const flushed = known ? [directory] : await this.createDirectory(directory);
    const [bodyWrite, typeWrite] = await Promise.allSettled([
      this.writeFlushed(body),
      // a content-type file left by an earlier put of the key with another type would now be wrong
      typeImplied ? removeFile(typeFile).then(() => null) : this.writeFlushed(Buffer.from(contentType, 'utf8')),
    ]);
    const temporaries = [bodyWrite, typeWrite].flatMap((w) => (w.status === 'fulfilled' && w.value !== null ? [w.value] : []));
    try {
      if (bodyWrite.status === 'rejected') throw bodyWrite.reason;
      if (typeWrite.status === 'rejected') throw typeWrite.reason;
      const typeTemporary = typeWrite.value;
      const renames = async (): Promise<void> => {
        if (typeTemporary !== null) await rename(typeTemporary, typeFile);
        await rename(bodyWrite.value, file);
      };
      await renames().catch(async (error: unknown) => {
        // a known directory deleted from outside since the store last wrote into it: created again, renamed once more
        if (!known || (error as { code?: unknown }).code !== 'ENOENT') throw error;
        for (const d of await this.createDirectory(directory)) if (!flushed.includes(d)) flushed.push(d);
        await renames();
      });
    } catch (error) {
      await Promise.all(temporaries.map((t) => rm(t, { force: true })));
      throw error;
    }
    await Promise.all(flushed.map(flushDirectory));
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
    let contentType = IMPLIED_CONTENT_TYPES.get(path.extname(file).toLowerCase()) ?? DEFAULT_CONTENT_TYPE;
    try {
      contentType = (await readFile(`${file}${CONTENT_TYPE_SUFFIX}`, 'utf8')) || contentType;
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

  /**
   * Walks the prefix's directories in key order (a directory `d` sorts as `d/`, as its keys do), skipping those
   * whose keys all sort up to `after`, and stops at the first blob past the page: the cost is one directory read per
   * directory on the way (their names, not their files) and a stat per blob of the page. A blob's content-type file
   * beside it is not a blob.
   */
  async list(prefix: string, { limit, after }: BlobListPage): Promise<BlobListing> {
    assertListLimit(limit);
    const keys: string[] = [];
    /** Adds the keys under `directory` (whose keys start with `keyPrefix/`) to `keys`; whether the page is past full. */
    const walk = async (directory: string, keyPrefix: string): Promise<boolean> => {
      let entries: Dirent[];
      try {
        entries = await readdir(directory, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
      const children = entries
        .flatMap((entry) => {
          const key = `${keyPrefix}/${entry.name}`;
          if (entry.isDirectory()) return [{ key, order: `${key}/`, directory: true }];
          return entry.isFile() && !entry.name.endsWith(CONTENT_TYPE_SUFFIX) ? [{ key, order: key, directory: false }] : [];
        })
        .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
      for (const child of children) {
        if (child.directory) {
          // every key under it sorts before `after` unless `after` falls inside it
          if (after !== undefined && after > child.order && !after.startsWith(child.order)) continue;
          if (await walk(path.join(directory, child.key.slice(keyPrefix.length + 1)), child.key)) return true;
        } else if (after === undefined || child.key > after) {
          keys.push(child.key);
          if (keys.length > limit) return true;
        }
      }
      return false;
    };
    await walk(this.fileOf(prefix), prefix);
    const blobs = await Promise.all(keys.slice(0, limit).map((key) => this.stat(key)));
    return { blobs: blobs.filter((blob): blob is BlobInfo => blob !== null), truncated: keys.length > limit };
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

  /**
   * Creates a directory (and its missing parents); the directories whose entries changed: the directory itself and
   * the parent of every directory created.
   */
  private async createDirectory(directory: string): Promise<string[]> {
    const created = await mkdir(directory, { recursive: true });
    this.knownDirectories.add(directory);
    if (this.knownDirectories.size > this.rememberedDirectories) {
      const oldest = this.knownDirectories.values().next();
      if (oldest.done !== true) this.knownDirectories.delete(oldest.value);
    }
    const changed = [directory];
    if (created !== undefined) {
      for (let d = directory; d !== path.dirname(created); d = path.dirname(d)) changed.push(path.dirname(d));
    }
    return changed;
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

/**
 * Removes a file that may not exist: one unlink (rm with force takes two lstat calls and its recursive machinery before
 * it, and this runs for every PDF stored).
 */
async function removeFile(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
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
