import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../cli/usage.error';
import { readDocuments } from './document-data.reader';

describe('reading --data files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cli-data-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const file = async (name: string, text: string): Promise<string> => {
    const p = path.join(dir, name);
    await writeFile(p, text);
    return p;
  };

  it('reads a single object as one document, an array as many, and a render request body by its documents', async () => {
    expect(await readDocuments(await file('one.json', '{"number": 1}'))).toEqual([{ number: 1 }]);
    expect(await readDocuments(await file('many.json', '[{"n": 1}, {"n": 2}]'))).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await readDocuments(await file('request.json', '{"documents": [{"n": 1}], "includeDocument": true}'))).toEqual([{ n: 1 }]);
    expect(await readDocuments(await file('field.json', '{"documents": [{"n": 1}], "title": "x"}'))).toEqual([{ documents: [{ n: 1 }], title: 'x' }]);
  });

  it('reads NDJSON one object per line, skipping blank lines', async () => {
    expect(await readDocuments(await file('lines.ndjson', '{"n": 1}\n\n{"n": 2}\r\n'))).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('names the file and line of what does not fit', async () => {
    await expect(readDocuments(await file('bad.ndjson', '{"n": 1}\n[1]\n'))).rejects.toThrow('bad.ndjson:2: a document must be a JSON object');
    await expect(readDocuments(await file('broken.json', '{"n": '))).rejects.toThrow(/broken.json: not valid JSON/);
    await expect(readDocuments(await file('empty.ndjson', '\n'))).rejects.toThrow('no documents');
    await expect(readDocuments(path.join(dir, 'missing.json'))).rejects.toBeInstanceOf(UsageError);
  });
});
