import { ConfigError, loadSettings } from './setting';
import { storageSettings } from './storage.settings';

describe('storage settings', () => {
  it('defaults to the filesystem store under .data/blobs and the bucket "documents"', () => {
    expect(loadSettings(storageSettings, {})).toEqual({
      s3Endpoint: undefined,
      s3AccessKey: undefined,
      s3SecretKey: undefined,
      s3Bucket: 'documents',
      s3Region: 'us-east-1',
      s3IdleTimeoutMs: 10_000,
      blobDir: '.data/blobs',
    });
  });

  it.each(['Documents', 'ab', 'a..b', '-abc', 'has space'])('S3_BUCKET refuses %j, naming the variable', (bucket) => {
    expect(() => loadSettings(storageSettings, { S3_BUCKET: bucket })).toThrow(ConfigError);
    expect(() => loadSettings(storageSettings, { S3_BUCKET: bucket })).toThrow(/^S3_BUCKET: /);
  });

  it('S3_ENDPOINT must be http or https', () => {
    expect(() => loadSettings(storageSettings, { S3_ENDPOINT: 'ftp://minio:9000' })).toThrow(/^S3_ENDPOINT: /);
  });
});
