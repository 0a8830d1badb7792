import { readdirSync, readFileSync } from 'node:fs';

type ProcessStat = { pid: number; state: string; ppid: number; cpuTicks: number };

function readStat(pid: number): ProcessStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may contain spaces; it is in parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0], ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** Live Chromium renderer processes (`--type=renderer`) among the descendants of `ancestor` (a render service's pid). */
export function rendererProcessesUnder(ancestor: number): number[] {
  const processes = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((p): p is ProcessStat => p !== null);
  const found: number[] = [];
  let frontier = [ancestor];
  while (frontier.length > 0) {
    const children = processes.filter((p) => frontier.includes(p.ppid));
    found.push(...children.filter((p) => p.state !== 'Z').map((p) => p.pid));
    frontier = children.map((p) => p.pid);
  }
  return found.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

/** Waits until one renderer under `ancestor` not in `excluded` has used `ticks` more CPU than when first seen: it prints. */
async function rendererAtWork(ancestor: number, excluded: readonly number[], ticks: number, timeoutMs: number): Promise<boolean> {
  const baseline = new Map<number, number>();
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    for (const pid of rendererProcessesUnder(ancestor)) {
      if (excluded.includes(pid)) continue;
      const used = readStat(pid)?.cpuTicks ?? 0;
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
 * Crashes a render twice, as a document that kills Chromium would: once a renderer under `ancestor` (the render
 * service's pid) is busy printing, every renderer is killed (the render crashes; the pool retries it once on a fresh
 * page); once a fresh renderer is busy printing the retry, every renderer is killed again. Resolves with the number
 * of processes killed (0 when nothing printed within `timeoutMs`).
 */
export async function crashTwice(ancestor: number, busyTicks = 30, timeoutMs = 60_000): Promise<number> {
  if (!(await rendererAtWork(ancestor, [], busyTicks, timeoutMs))) return 0;
  const first = rendererProcessesUnder(ancestor);
  let kills = killAll(first);
  if (!(await rendererAtWork(ancestor, first, busyTicks, timeoutMs))) return kills;
  kills += killAll(rendererProcessesUnder(ancestor));
  return kills;
}
