import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';

/** The repository root (this file lives at deploy/test/support/). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

/**
 * Runs a command-line tool the deployment checks need (kubectl, docker-compose) and returns its stdout. A missing tool
 * fails with one line saying how to install it (`.ci/run` installs both); a failing command fails with its stderr.
 */
export function runTool(tool: string, args: string[], options: { env?: NodeJS.ProcessEnv; installHint: string }): string {
  const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  if (found.status !== 0) {
    throw new Error(`${tool} is not installed; these checks need it. ${options.installHint}`);
  }
  try {
    return execFileSync(tool, args, {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: options.env ?? process.env,
      maxBuffer: 32 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new Error(`${tool} ${args.join(' ')} failed: ${stderr || (error as Error).message}`, { cause: error });
  }
}
