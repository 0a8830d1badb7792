import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Writes `bytes` as `name` in a fresh temporary directory, hands the file's path to `use` (e.g. a command-line tool
 * that reads files), and removes the directory whatever `use` does.
 */
export async function withTempFile<T>(bytes: Buffer, name: string, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docrender-file-'));
  try {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
