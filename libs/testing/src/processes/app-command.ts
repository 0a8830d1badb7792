import { execFile } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './app-process';

/** How a command-line run ended: its exit code (0 for success) and everything it wrote. */
export type CommandRun = { code: number; stdout: string; stderr: string };

/**
 * Runs `node dist/<main> ...args` from the repository root with exactly `env` (plus PATH; nothing else is inherited)
 * and answers how it ended, whatever its exit code. Call ensureBuilt() first.
 */
export function runAppCommand(main: string, args: string[], env: Record<string, string>): Promise<CommandRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(REPO_ROOT, 'dist', main), ...args], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/** runAppCommand for a run that must succeed (exit 0, nothing on stderr): its standard output read as JSON. */
export async function appCommandJson(main: string, args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  const run = await runAppCommand(main, args, env);
  if (run.code !== 0 || run.stderr !== '') throw new Error(`node dist/${main} ${args.join(' ')} exited with ${run.code}:\n${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}
