// s3rver ships no type declarations; this is the part the test helper uses.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: Array<{ name: string }>;
  }

  interface S3rverListOptions {
    delimiter?: string;
    startAfter?: string;
    prefix?: string;
    maxKeys?: number;
  }

  interface S3rverListing {
    objects: Array<{ key: string }>;
    commonPrefixes: string[];
    isTruncated: boolean;
  }

  class S3rver {
    constructor(options?: S3rverOptions);
    /** Its filesystem store (the one its request handlers use). */
    store: { listObjects(bucket: string, options: S3rverListOptions): Promise<S3rverListing> };
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }

  export = S3rver;
}
