/** One dependency the readiness probe checks (spec 4.17): it resolves when the dependency answers. */
export type ReadinessCheck = {
  /** Named in the 503 reason, e.g. `database`, `blob storage`, `message bus`, `chromium`. */
  name: string;
  check(): Promise<void>;
};

export const READINESS_CHECKS = Symbol('ReadinessChecks');

export type ReadinessResult = { ready: true } | { ready: false; reason: string };

/** Runs every check in parallel, each bounded by `timeoutMs`; the reason names every dependency that failed. */
export async function checkReadiness(checks: readonly ReadinessCheck[], timeoutMs = 3000): Promise<ReadinessResult> {
  const failures = await Promise.all(
    checks.map(async (c) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          c.check(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return null;
      } catch (err) {
        return `${c.name} unreachable: ${err instanceof Error ? err.message : String(err)}`;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const failed = failures.filter((f): f is string => f !== null);
  return failed.length === 0 ? { ready: true } : { ready: false, reason: failed.join('; ') };
}
