import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSettings, storageSettings } from '@docrender/config';
import { createBlobStore } from './blob-store.factory';
import { FilesystemBlobStore } from './filesystem/filesystem-blob-store';

describe('createBlobStore', () => {
  it('uses the filesystem under BLOB_DIR when S3_ENDPOINT is unset', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'docrender-factory-'));
    try {
      const store = await createBlobStore(loadSettings(storageSettings, { BLOB_DIR: dir }));
      expect(store).toBeInstanceOf(FilesystemBlobStore);
      await store.put('k', Buffer.from('v'), 'text/plain');
      expect((await store.get('k')).toString()).toBe('v');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
