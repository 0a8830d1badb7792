import { describeBlobStoreBehaviour } from '../testing/blob-store.behaviour';
import { MemoryBlobStore } from './memory-blob-store';

describe('MemoryBlobStore (the unit tests’ BlobStore) keeps the BlobStore contract', () => {
  const store = new MemoryBlobStore();
  describeBlobStoreBehaviour(() => store);
});
