import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

/** The repository root: the first directory up from this file holding tools/build.mjs (from the sources and from dist/). */
function repositoryRoot(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'tools', 'build.mjs'))) return dir;
  }
  throw new Error(`no repository root above ${__dirname}`);
}

export const REPO_ROOT = repositoryRoot();

let built: Promise<void> | undefined;

/** Compiles the workspace to dist/ once per test file (incremental: only changed files are compiled). */
export function ensureBuilt(): Promise<void> {
  built ??= promisify(execFile)(process.execPath, [path.join(REPO_ROOT, 'tools/build.mjs'), '--quiet'], { cwd: REPO_ROOT }).then(
    () => undefined,
  );
  return built;
}

/**
 * Where test ports come from: below Linux's ephemeral range (32768–60999), where the kernel takes the local ports of
 * outgoing connections. A port the kernel found free there (listen on port 0) can be taken by a connection to
 * PostgreSQL or RabbitMQ before the app binds it, which a busy machine made happen (EADDRINUSE at an app's start).
 * Each jest worker hands out ports from a block of its own, going round from a random place, so two workers never
 * hand out the same port and test files in one worker rarely reuse one at once.
 */
const PORT_BLOCKS = { from: 20_000, size: 760, count: 16 };
const portBlock = PORT_BLOCKS.from + (Number(process.env.JEST_WORKER_ID ?? process.pid) % PORT_BLOCKS.count) * PORT_BLOCKS.size;
let nextPort = Math.floor(Math.random() * PORT_BLOCKS.size);

/** A TCP port nobody listens on right now, on any address, from this worker's block. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < PORT_BLOCKS.size; tried++) {
    const port = portBlock + nextPort;
    nextPort = (nextPort + 1) % PORT_BLOCKS.size;
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${portBlock}–${portBlock + PORT_BLOCKS.size - 1}`);
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

export type AppProcess = {
  pid: number;
  /** The environment the process was started with (its settings, e.g. its ports). */
  env: Readonly<Record<string, string>>;
  /** Everything the process wrote so far (stdout and stderr), for assertions and failure messages. */
  output(): string;
  /** Resolves when `pattern` appears in the output (rejects after `timeoutMs` or when the process exits first). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves when `url` answers 200. */
  waitForReady(url: string, timeoutMs?: number): Promise<void>;
  /** Sends a signal (SIGTERM by default), then SIGKILL after `graceMs`; resolves with the exit code or signal. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | NodeJS.Signals>;
  /** Resolves when the process has exited by itself or by stop(). */
  exited: Promise<number | NodeJS.Signals>;
};

/**
 * Starts `node dist/<main>` from the repository root as its own process with exactly `env` (plus PATH, HOME,
 * LOG_LEVEL=warn and ALLOW_DEVELOPMENT_SECRETS=true unless `env` says otherwise; nothing else is inherited, so the
 * machine's environment cannot leak in). Call ensureBuilt() first.
 */
export function startAppProcess(main: string, env: Record<string, string>): AppProcess {
  return startWatchedProcess(main, process.execPath, [path.join(REPO_ROOT, 'dist', main)], {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    ...appDefaults(env),
  }, env);
}

/** The status probe of an app listening on `port` (GET /v1/meta/status answers 200 once the app is ready). */
export function statusUrl(port: number): string {
  return `http://127.0.0.1:${port}/v1/meta/status`;
}

/**
 * startAppProcess, then waits until `readyUrl` answers 200. A process that exits first or is not ready within
 * `timeoutMs` is stopped, and the error carries its output. Call ensureBuilt() first.
 */
export async function startReadyAppProcess(main: string, env: Record<string, string>, readyUrl: string, timeoutMs?: number): Promise<AppProcess> {
  const app = startAppProcess(main, env);
  try {
    await app.waitForReady(readyUrl, timeoutMs);
  } catch (error) {
    await app.stop();
    throw error;
  }
  return app;
}

/**
 * `node dist/apps/render-service/src/main.js` as its own process on a free port (`port`, which also serves its
 * Prometheus metrics) with `settings`, once its status probe answers 200. Call ensureBuilt() first.
 */
export async function startRenderServiceProcess(settings: Record<string, string>, timeoutMs?: number): Promise<AppProcess & { port: number }> {
  const port = await freePort();
  const app = await startReadyAppProcess('apps/render-service/src/main.js', { ...settings, RENDER_SERVICE_PORT: String(port) }, statusUrl(port), timeoutMs);
  return { ...app, port };
}

/** What every app a test starts gets unless `env` says otherwise: quiet logs, development secrets allowed. */
function appDefaults(env: Record<string, string>): Record<string, string> {
  // Tests use throw-away secrets or the development defaults: allowed here, refused in a deployment (issue 17).
  return { LOG_LEVEL: 'warn', ALLOW_DEVELOPMENT_SECRETS: 'true', ...env };
}

/**
 * Runs `command` with `processEnv` and watches it as an AppProcess named `main` (its output collected, its exit
 * awaited, stopped by a signal); `env` is what the AppProcess reports as its settings.
 */
function startWatchedProcess(main: string, command: string, args: string[], processEnv: Record<string, string>, env: Record<string, string>): AppProcess {
  const child: ChildProcess = spawn(command, args, { cwd: REPO_ROOT, env: processEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | NodeJS.Signals>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code ?? 0)));
  const done = (): boolean => child.exitCode !== null || child.signalCode !== null;

  return {
    pid: child.pid ?? -1,
    env,
    output: () => output,
    exited,
    waitForOutput(pattern, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const match = output.match(pattern);
          if (match) finish(() => resolve(match));
          else if (done()) finish(() => reject(new Error(`${main} exited before printing ${pattern}:\n${output}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`${main} did not print ${pattern} within ${timeoutMs} ms:\n${output}`))), timeoutMs);
        const finish = (settle: () => void): void => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        void exited.then(check);
        check();
      });
    },
    async waitForReady(url, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (done()) throw new Error(`${main} exited with ${child.exitCode ?? child.signalCode} before ${url} answered 200:\n${output}`);
        try {
          if ((await fetch(url)).status === 200) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${output}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (!done()) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return exited;
    },
  };
}
