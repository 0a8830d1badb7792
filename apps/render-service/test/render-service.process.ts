import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../../..');
export const RENDER_SERVICE_MAIN = path.join(ROOT, 'dist/apps/render-service/src/main.js');
const run = promisify(execFile);

/** `node tools/build.mjs` (incremental), so dist/ holds the code under test. */
export async function buildWorkspace(): Promise<void> {
  await run(process.execPath, [path.join(ROOT, 'tools/build.mjs'), '--quiet'], { cwd: ROOT, timeout: 300_000 });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

export type RenderServiceProcess = {
  child: ChildProcess;
  port: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Parsed JSON log lines with the given message. */
  logs(message: string): Array<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Spawns `node dist/apps/render-service/src/main.js` with exactly `settings` (plus PATH, HOME) and waits until it is ready. */
export async function spawnRenderService(settings: Record<string, string>): Promise<RenderServiceProcess> {
  const port = await freePort();
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'info', ...settings, RENDER_SERVICE_PORT: String(port) };
  const child = spawn(process.execPath, [RENDER_SERVICE_MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const logs = (message: string) =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.message === message);
  const handle: RenderServiceProcess = { child, port, output: () => output, logs, exited };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the render service exited with ${child.exitCode} at start:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/v1/meta/status`)).status === 200) return handle;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the render service did not become ready within 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
