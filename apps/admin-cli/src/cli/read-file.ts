import { promises as fs } from 'node:fs';
import path from 'node:path';
import { UsageError } from './cli-arguments';

/** Reads a file named by an argument (relative to `baseDir`); a usage error naming the argument when it cannot. */
export async function readArgumentFile(argument: string, baseDir: string, file: string): Promise<Buffer> {
  try {
    return await fs.readFile(path.resolve(baseDir, file));
  } catch (error) {
    throw new UsageError(argument, `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** Reads a JSON object from a file named by an argument; a usage error naming the argument otherwise. */
export async function readJsonObject(argument: string, baseDir: string, file: string): Promise<Record<string, unknown>> {
  const text = (await readArgumentFile(argument, baseDir, file)).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(argument, `${file} is not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(argument, `${file} must contain a JSON object`);
  return value as Record<string, unknown>;
}
