import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc/<pid>/stat gives it (Linux). */
export type ProcessStat = { pid: number; state: string; ppid: number; pgrp: number; cpuTicks: number };

/** One process's stat; null once it is gone. */
export function readProcessStat(pid: number): ProcessStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may contain spaces; it is in parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** Every process of the machine (zombies included). */
export function allProcesses(): ProcessStat[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcessStat(Number(name)))
    .filter((s): s is ProcessStat => s !== null);
}

/** Every live descendant of a process (children, their children…), zombies excluded, not the process itself. */
export function descendantsOf(ancestor: number): number[] {
  const children = new Map<number, ProcessStat[]>();
  for (const p of allProcesses()) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const found: number[] = [];
  const pending = [...(children.get(ancestor) ?? [])];
  while (pending.length > 0) {
    const next = pending.pop() as ProcessStat;
    if (next.state !== 'Z') found.push(next.pid);
    pending.push(...(children.get(next.pid) ?? []));
  }
  return found;
}

/**
 * The memory of a process's descendants (a render service's Chromium), in MB, from /proc/<pid>/smaps_rollup:
 * `pssMb` divides each shared page among the processes that map it — the fair total, but it moves when other
 * processes of the machine (another Chromium) map or unmap the same library pages; `privateMb` counts only the pages
 * no other process maps (heaps, caches), which is what a document can make the tree keep, whatever else runs.
 */
export function treeMemoryMb(ancestor: number): { pssMb: number; privateMb: number } {
  let pss = 0;
  let own = 0;
  for (const pid of descendantsOf(ancestor)) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
      pss += kb('Pss');
      own += kb('Private_Clean') + kb('Private_Dirty');
    } catch {
      // ended meanwhile
    }
  }
  return { pssMb: pss / 1024, privateMb: own / 1024 };
}
