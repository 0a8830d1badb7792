/**
 * Runs a bench script's `main` and ends the process with its outcome: 0 when it finished, 1 (with the error printed)
 * when it failed. The process is ended rather than left to drain, so a stack that failed to stop cannot hang it.
 */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
