import { startRenderServiceProcess, type AppProcess } from '@docrender/testing';

export type RenderServiceProcess = AppProcess & {
  port: number;
  /** Parsed JSON log lines with the given message. */
  logs(message: string): Array<Record<string, unknown>>;
};

/** `node dist/apps/render-service/src/main.js` with `settings` (startRenderServiceProcess), logging from info up, once it is ready. */
export async function spawnRenderService(settings: Record<string, string>): Promise<RenderServiceProcess> {
  const service = await startRenderServiceProcess({ LOG_LEVEL: 'info', ...settings }, 90_000);
  const logs = (message: string) =>
    service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.message === message);
  return { ...service, logs };
}
