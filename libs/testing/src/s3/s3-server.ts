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
