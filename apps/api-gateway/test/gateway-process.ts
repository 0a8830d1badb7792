import { ensureBuilt, freePort, startAppProcess } from '@docrender/testing';

export { ensureBuilt, freePort };

export type GatewayProcess = {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  port: number;
  /** The process id (e.g. to read its memory from /proc). */
  pid: number;
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
  const child = startAppProcess('apps/api-gateway/src/main.js', { ...settings, PORT: String(port) });
  const baseUrl = `http://127.0.0.1:${port}`;
  const gateway: GatewayProcess = {
    baseUrl,
    port,
    pid: child.pid,
    output: () => child.output(),
    stop: async () => {
      await child.stop('SIGTERM', 10_000);
    },
  };
  try {
    await child.waitForReady(`${baseUrl}/v1/meta/status`, 60_000);
  } catch (error) {
    await gateway.stop();
    throw error;
  }
  return gateway;
}
