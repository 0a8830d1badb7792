// The container health check of every image (Dockerfile HEALTHCHECK, docker-compose.yml):
//   node dist/libs/platform/src/meta/health-check.main.js RENDER_SERVICE_PORT
// Exit 0 when the app on that port is ready, 1 (with the reason on stderr) otherwise (Docker reserves 2). It loads only node:http, so a
// check costs one small process, and its arguments hold no spaces, so no engine can split them wrongly.
import { checkHealth, healthCheckPort } from './health-check';

const TIMEOUT_MS = 4000;

async function main(): Promise<number> {
  let port: number;
  try {
    port = healthCheckPort(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
  const result = await checkHealth(port, TIMEOUT_MS);
  if (result.healthy) return 0;
  process.stderr.write(`unhealthy: ${result.reason}\n`);
  return 1;
}

void main().then((code) => {
  process.exitCode = code;
});
