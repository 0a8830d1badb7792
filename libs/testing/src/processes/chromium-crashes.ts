import { readFileSync } from 'node:fs';
import { descendantsOf, readProcessStat } from './process-tree';

/** Live Chromium renderer processes (`--type=renderer`) among the descendants of `ancestor` (a render service's pid). */
export function rendererProcessesUnder(ancestor: number): number[] {
  return descendantsOf(ancestor).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

/**
 * Waits until one renderer under `ancestor` not in `excluded` has used `ticks` more CPU than when first seen (it
 * prints), or until `stop()` is true. Resolves with whether a renderer was found at work.
 */
async function rendererAtWork(ancestor: number, excluded: ReadonlySet<number>, ticks: number, stop: () => boolean): Promise<boolean> {
  const baseline = new Map<number, number>();
  while (!stop()) {
    for (const pid of rendererProcessesUnder(ancestor)) {
      if (excluded.has(pid)) continue;
      const used = readProcessStat(pid)?.cpuTicks ?? 0;
      const first = baseline.get(pid);
      if (first === undefined) baseline.set(pid, used);
      else if (used - first >= ticks) return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

function killAll(pids: readonly number[]): number {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 'SIGKILL');
      return true;
    } catch {
      return false;
    }
  }).length;
}

/**
 * Crashes every print under `ancestor` (a render service's pid) until `outcome` settles, as a document that kills
 * Chromium would: whenever a renderer not killed before is busy (it has used `busyTicks` of CPU since first seen),
 * every renderer is killed. A render caught in a crash is retried once by the pool on a fresh page, whose renderer is
 * killed the same way once it prints, so the document cannot print at all, however long the pool takes to replace
 * pages. A renderer that uses the CPU without printing (a fresh page starting on a loaded machine) may be killed too:
 * that only replaces a page, it never lets a print through. Resolves with the number of rounds that killed something
 * once `outcome` has settled.
 */
export async function crashUntilSettled(ancestor: number, outcome: Promise<unknown>, busyTicks = 30): Promise<number> {
  let settled = false;
  outcome.then(
    () => (settled = true),
    () => (settled = true),
  );
  const killed = new Set<number>();
  let rounds = 0;
  while (await rendererAtWork(ancestor, killed, busyTicks, () => settled)) {
    const renderers = rendererProcessesUnder(ancestor);
    renderers.forEach((pid) => killed.add(pid));
    if (killAll(renderers) > 0) rounds++;
  }
  return rounds;
}
