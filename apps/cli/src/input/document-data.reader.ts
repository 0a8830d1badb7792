import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../cli/usage.error';

/** One document's data as read from the file. */
export type JsonObject = Record<string, unknown>;

/**
 * Reads the documents of a data file:
 * - `.ndjson` / `.jsonl`: one JSON object per line (blank lines skipped);
 * - anything else as JSON: an array of objects; a render request body `{ "documents": [...] }` (optionally with
 *   `includeDocument`); or a single object, which is one document.
 * @throws UsageError naming the file (and line) that does not fit
 */
export async function readDocuments(file: string): Promise<JsonObject[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--data ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  const documents = /\.(ndjson|jsonl)$/i.test(file) ? lines(text, file) : whole(text, file);
  if (documents.length === 0) throw new UsageError(`--data ${file}: no documents`);
  return documents;
}

function lines(text: string, file: string): JsonObject[] {
  const documents: JsonObject[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    documents.push(object(parse(line, `${path.basename(file)}:${i + 1}`), `${path.basename(file)}:${i + 1}`));
  });
  return documents;
}

function whole(text: string, file: string): JsonObject[] {
  const name = path.basename(file);
  const value = parse(text, name);
  if (Array.isArray(value)) return value.map((entry, i) => object(entry, `${name}[${i}]`));
  const single = object(value, name);
  const keys = Object.keys(single);
  if (Array.isArray(single.documents) && keys.every((key) => key === 'documents' || key === 'includeDocument')) {
    return single.documents.map((entry, i) => object(entry, `${name} documents[${i}]`));
  }
  return [single];
}

function parse(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`--data ${where}: not valid JSON (${(error as Error).message})`);
  }
}

function object(value: unknown, where: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`--data ${where}: a document must be a JSON object`);
  return value as JsonObject;
}
