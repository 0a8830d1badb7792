import { readdirSync, readFileSync } from 'node:fs';

type ProcessStat = { pid: number; state: string; ppid: number; pgrp: number };

function readStat(pid: number): ProcessStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may contain spaces; it is in parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

function allProcesses(): ProcessStat[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is ProcessStat => s !== null);
}

/** Every process (zombies included) in the process groups led by the given browser pids. */
export function processesInGroups(groupLeaders: readonly number[]): ProcessStat[] {
  return allProcesses().filter((p) => groupLeaders.includes(p.pgrp));
}

/** Every live descendant of a process (children, their children…), zombies excluded. */
export function descendantsOf(ancestor: number): number[] {
  const processes = allProcesses();
  const found: number[] = [];
  let frontier = [ancestor];
  while (frontier.length > 0) {
    const children = processes.filter((p) => frontier.includes(p.ppid)).map((p) => p.pid);
    found.push(...children);
    frontier = children;
  }
  return found.filter((pid) => readStat(pid)?.state !== 'Z');
}

/** Which of the given processes still run (zombies excluded: they run nothing, their parent has to reap them). */
export function stillRunning(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    const stat = readStat(pid);
    return stat !== null && stat.state !== 'Z';
  });
}

/** The renderer processes (one per site/page) in a browser's process group. */
export function rendererProcesses(groupLeader: number): number[] {
  return processesInGroups([groupLeader])
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').includes('--type=renderer');
      } catch {
        return false;
      }
    })
    .map((p) => p.pid);
}

/** Zombie children of this process (a child that exited and was never reaped). */
export function zombieChildren(parent: number = process.pid): ProcessStat[] {
  return allProcesses().filter((p) => p.ppid === parent && p.state === 'Z');
}

/** Polls until `condition` holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(condition: () => boolean, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return condition();
}
