import type { StorageSettings } from '@docrender/config';
import type { BlobStore } from './blob-store';
import { FilesystemBlobStore } from './filesystem/filesystem-blob-store';
import { MinioBlobStore } from './minio/minio-blob-store';

/**
 * The blob store the settings ask for: MinIO/S3 when S3_ENDPOINT is set (its bucket created when missing), otherwise
 * files under BLOB_DIR. Fails when the store cannot be reached or created, so an app stops at start-up.
 */
export async function createBlobStore(settings: StorageSettings): Promise<BlobStore> {
  if (settings.s3Endpoint === undefined) return FilesystemBlobStore.open(settings.blobDir);
  const store = new MinioBlobStore({
    endpoint: settings.s3Endpoint,
    accessKey: settings.s3AccessKey,
    secretKey: settings.s3SecretKey,
    bucket: settings.s3Bucket,
    region: settings.s3Region,
    idleTimeoutMs: settings.s3IdleTimeoutMs,
  });
  await store.ensureBucket();
  return store;
}
