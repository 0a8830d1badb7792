/** Where the CLI reads its environment and writes its output; tests pass their own. */
export type CliIo = {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Where relative file arguments resolve: the directory the user typed the command in (npm's INIT_CWD). */
  baseDir: string;
  /** Whether stderr is a terminal (progress bars redraw in place there). */
  stderrIsTty: boolean;
};

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    baseDir: process.env.INIT_CWD ?? process.cwd(),
    stderrIsTty: process.stderr.isTTY === true,
  };
}

/** Exit codes: 0 done, 1 something failed or is missing (or invalid), 2 bad usage. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
