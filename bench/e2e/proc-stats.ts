/**
 * CPU time and memory of the bench's processes, read from /proc (Linux): a process's own user + system time
 * (/proc/<pid>/stat), the time of a whole process tree (a render service and its Chromium), RSS, and PSS of a tree
 * (/proc/<pid>/smaps_rollup: Chromium's processes share much of their memory, so the sum of their RSS would count
 * it several times).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const PAGE_BYTES = Number(execFileSync('getconf', ['PAGESIZE']).toString().trim());

/** The fields after the command name of /proc/<pid>/stat (field 3, the state, is index 0); null once the process is gone. */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** User + system CPU milliseconds the process has used so far (0 once it is gone). */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  if (fields === null) return 0;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Every live descendant of `pid` (children, their children, …), not `pid` itself. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields === null) continue;
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const pending = [...(children.get(pid) ?? [])];
  while (pending.length > 0) {
    const next = pending.pop() as number;
    found.push(next);
    pending.push(...(children.get(next) ?? []));
  }
  return found;
}

/** User + system CPU milliseconds of the process and of its children it has waited for (fields 14–17). */
function cpuWithReapedMs(pid: number): number {
  const fields = statFields(pid);
  if (fields === null) return 0;
  return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The CPU time of the descendants of a process at one moment (see treeCpuMsBetween). */
export type TreeCpu = { reapedByRoot: number; live: Map<number, number> };

export function treeCpu(pid: number): TreeCpu {
  const fields = statFields(pid);
  const reapedByRoot = fields === null ? 0 : ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
  return { reapedByRoot, live: new Map(descendants(pid).map((child) => [child, cpuWithReapedMs(child)])) };
}

/**
 * CPU milliseconds the descendants of a process (a render service's or the bench's Chromium) used between two
 * snapshots, a browser replaced meanwhile included: an exited child's whole time lands in its parent's reaped time,
 * so what it had used before the first snapshot is taken off again.
 */
export function treeCpuMsBetween(before: TreeCpu, after: TreeCpu): number {
  let ms = after.reapedByRoot - before.reapedByRoot;
  for (const [pid, used] of after.live) ms += used - (before.live.get(pid) ?? 0);
  for (const [pid, used] of before.live) if (!after.live.has(pid)) ms -= used;
  return ms;
}

/** Resident set size in MB (0 once the process is gone). */
export function rssMb(pid: number): number {
  const fields = statFields(pid);
  return fields === null ? 0 : (Number(fields[21]) * PAGE_BYTES) / 1024 / 1024;
}

/** Proportional set size of the descendants of `pid` in MB (shared pages divided among the processes sharing them). */
export function treePssMb(pid: number): number {
  let kb = 0;
  for (const child of descendants(pid)) {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child}/smaps_rollup`, 'utf8'));
      kb += match ? Number(match[1]) : 0;
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}
