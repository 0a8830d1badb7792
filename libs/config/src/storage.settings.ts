import { ConfigOf, setting } from './setting';

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const bucketNameProblem = (value: string): string | null =>
  BUCKET_NAME.test(value) && !value.includes('..') ? null : `must be an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens), got '${value}'`;

/** Blob storage settings (PDFs, preview images, font files, large job inputs). */
export const storageSettings = {
  s3Endpoint: setting.optionalUrl(
    'S3_ENDPOINT',
    'S3-compatible endpoint (the bundled SeaweedFS, AWS S3, your own MinIO), e.g. http://seaweedfs:8333. Unset: blobs are files under BLOB_DIR (one-process mode).',
    ['http', 'https'],
  ),
  s3AccessKey: setting.optionalString('S3_ACCESS_KEY', 'Access key for S3_ENDPOINT.'),
  s3SecretKey: setting.optionalString('S3_SECRET_KEY', 'Secret key for S3_ENDPOINT.'),
  s3Bucket: setting.checkedString('S3_BUCKET', 'Bucket holding every blob; created at start when missing.', 'documents', bucketNameProblem),
  s3Region: setting.string('S3_REGION', 'Region of the bucket.', 'us-east-1'),
  s3IdleTimeoutMs: setting.int(
    'S3_IDLE_TIMEOUT_MS',
    'How long a request to S3_ENDPOINT may go without a byte from the server before it fails as a storage outage (a store that accepts connections but never answers); a transfer that keeps moving is never cut.',
    10_000,
    { min: 100, max: 600_000 },
  ),
  blobDir: setting.string(
    'BLOB_DIR',
    'Root directory of the filesystem blob store used when S3_ENDPOINT is unset (relative paths are resolved against the working directory).',
    '.data/blobs',
  ),
};

export type StorageSettings = ConfigOf<typeof storageSettings>;
