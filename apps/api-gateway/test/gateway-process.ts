import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(ROOT, 'dist/apps/api-gateway/src/main.js');

let built: Promise<void> | undefined;

/** Compiles the workspace to dist/ once per test file (incremental: only changed files are compiled). */
export function ensureBuilt(): Promise<void> {
  built ??= promisify(execFile)(process.execPath, [path.join(ROOT, 'tools/build.mjs'), '--quiet'], { cwd: ROOT, timeout: 120_000 }).then(() => undefined);
  return built;
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export type GatewayProcess = {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  port: number;
  /** Everything the process wrote so far (JSON log lines), for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process has exited. */
  stop(): Promise<void>;
};

/**
 * Starts `node dist/apps/api-gateway/src/main.js` as its own process with exactly the given settings (plus PATH and
 * HOME; nothing else is inherited, so the machine's environment cannot leak in) and waits until its readiness probe
 * answers 200. Call ensureBuilt() first.
 */
export async function startGateway(settings: Record<string, string>): Promise<GatewayProcess> {
  const port = settings.PORT ? Number(settings.PORT) : await freePort();
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...settings, PORT: String(port) };
  const child: ChildProcess = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const gateway: GatewayProcess = {
    baseUrl,
    port,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode} at start:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/v1/meta/status`)).status === 200) return gateway;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await gateway.stop();
      throw new Error(`the gateway did not become ready within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
