import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export type S3TestServer = {
  /** http://127.0.0.1:<port>, the value for S3_ENDPOINT. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  /** Stops the server and deletes its directory. */
  stop(): Promise<void>;
};

/** s3rver's built-in account; it accepts requests signed with it. */
const S3RVER_KEY = 'S3RVER';

/** An S3 server (s3rver) in this process on a free port, storing into a fresh temporary directory. */
export async function startS3Server(): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(tmpdir(), 'docrender-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  listInKeyOrder(server);
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKey: S3RVER_KEY,
    secretKey: S3RVER_KEY,
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver lists a bucket in the order its directory walk meets the keys (readdir's order: hashed on ext4), where S3
 * and MinIO list in key order (UTF-8 bytes), `max-keys` and `start-after` taking the first keys of that order. This
 * makes the server list as S3 does: every object listed, ordered by key, then `start-after` and `max-keys` applied
 * (`isTruncated` when more follow). Common prefixes (a delimiter's) are left as s3rver answers them. s3rver cannot
 * answer a truncated list-type=2 listing on OpenSSL 3 (its continuation token is single-DES, a legacy cipher: 500
 * InternalError), so a test lists fewer keys than it asks for at once (the minio client asks for 1,000).
 */
function listInKeyOrder(server: S3rver): void {
  const store = server.store;
  const listObjects = store.listObjects.bind(store);
  store.listObjects = async (bucket, options) => {
    const all = await listObjects(bucket, { ...options, startAfter: '', maxKeys: Infinity });
    const bytes = (key: string) => Buffer.from(key, 'utf8');
    const startAfter = bytes(options.startAfter ?? '');
    const ordered = all.objects.filter((o) => Buffer.compare(bytes(o.key), startAfter) > 0).sort((a, b) => Buffer.compare(bytes(a.key), bytes(b.key)));
    const maxKeys = options.maxKeys ?? Infinity;
    return { ...all, objects: ordered.slice(0, maxKeys), isTruncated: ordered.length > maxKeys };
  };
}
