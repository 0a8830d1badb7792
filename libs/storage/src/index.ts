export * from './blob-store';
export * from './blob-key';
export * from './blob-store.factory';
export { FilesystemBlobStore } from './filesystem/filesystem-blob-store';
export { MinioBlobStore, type MinioBlobStoreOptions } from './minio/minio-blob-store';
export { MemoryBlobStore } from './memory/memory-blob-store';
