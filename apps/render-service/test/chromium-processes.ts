import { readFileSync } from 'node:fs';
import { allProcesses, readProcessStat, type ProcessStat } from '@docrender/testing';

/** Every process (zombies included) in the process groups led by the given browser pids. */
export function processesInGroups(groupLeaders: readonly number[]): ProcessStat[] {
  return allProcesses().filter((p) => groupLeaders.includes(p.pgrp));
}

/** Which of the given processes still run (zombies excluded: they run nothing, their parent has to reap them). */
export function stillRunning(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    const stat = readProcessStat(pid);
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
