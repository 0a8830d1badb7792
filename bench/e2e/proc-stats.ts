/**
 * CPU time and memory of the bench's processes, read from /proc (Linux): a process's own user + system time
 * (/proc/<pid>/stat), the time of a whole process tree (a render service and its Chromium) and RSS; a tree's memory is
 * `treeMemoryMb` of @docrender/testing.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { descendantsOf } from '@docrender/testing';

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

/** A process's CPU time at one look: its own, and that of its children it has waited for (ended), and its parent. */
type CpuLook = { ownMs: number; reapedMs: number; parent: number };

function cpuLook(pid: number): CpuLook | null {
  const fields = statFields(pid);
  if (fields === null) return null;
  const ms = (ticks: string): number => (Number(ticks) * 1000) / CLOCK_TICKS_PER_SECOND;
  return { ownMs: ms(fields[11]) + ms(fields[12]), reapedMs: ms(fields[13]) + ms(fields[14]), parent: Number(fields[1]) };
}

/** User + system CPU milliseconds the process has used so far (0 once it is gone). */
export function cpuMs(pid: number): number {
  return cpuLook(pid)?.ownMs ?? 0;
}

/** Every live process's children, by parent pid. */
function childrenByParent(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields === null) continue;
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  return children;
}

/** The live children of `pid` (a render service's: its Chromium browsers). */
export function childrenOf(pid: number): number[] {
  return childrenByParent().get(pid) ?? [];
}

/** Every live process whose command name (/proc/<pid>/stat field 2, e.g. "postgres", "beam.smp") matches. */
export function processesNamed(name: RegExp): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (name.test(text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * Measures the CPU time of a changing set of processes from `start()` to `stop()`, looking at them every `everyMs`:
 * the descendants of a process (a render service's or the bench's Chromium: `CpuMeter.tree`), or the machine's
 * processes of one name (PostgreSQL's backends, RabbitMQ's VM: `CpuMeter.named`). A process that ends is counted
 * through its parent when the parent is one of the set: when the parent waits for it, the kernel adds all of its
 * life's time to the parent's (/proc/<pid>/stat fields 16 and 17), so what it had used before `start()` is taken off.
 * That is how the short-lived processes are counted, which mostly end between two looks: Chromium starts a print
 * compositor process for every print. A process whose parent is not in the set is counted up to its last look (at
 * most `everyMs` of its time is missed).
 */
export class CpuMeter {
  private readonly base = new Map<number, CpuLook>();
  private readonly last = new Map<number, CpuLook>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pids: () => number[],
    private readonly everyMs = 500,
  ) {}

  /** The descendants of `root`, and `root` itself with `withRoot` (a browser launched by the bench). */
  static tree(root: number, withRoot = false): CpuMeter {
    return new CpuMeter(() => (withRoot ? [root, ...descendantsOf(root)] : descendantsOf(root)));
  }

  static named(name: RegExp): CpuMeter {
    return new CpuMeter(() => processesNamed(name));
  }

  start(): this {
    for (const pid of this.pids()) {
      const look = cpuLook(pid);
      if (look === null) continue;
      this.base.set(pid, look);
      this.last.set(pid, look);
    }
    this.timer = setInterval(() => this.look(), this.everyMs);
    return this;
  }

  /** CPU milliseconds used since start(). */
  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const live = this.look();
    let ms = 0;
    for (const [pid, look] of this.last) {
      const base = this.base.get(pid) ?? { ownMs: 0, reapedMs: 0 };
      // ended and waited for by a process of the set: its whole life's time is in its parent's, less what it had used before start()
      if (!live.has(pid) && this.last.has(look.parent)) ms -= base.ownMs + base.reapedMs;
      else ms += look.ownMs - base.ownMs + (look.reapedMs - base.reapedMs);
    }
    return ms;
  }

  /** Looks at every process of the set; returns those alive. */
  private look(): Set<number> {
    const live = new Set<number>();
    for (const pid of this.pids()) {
      const look = cpuLook(pid);
      if (look === null) continue;
      live.add(pid);
      this.last.set(pid, look);
    }
    return live;
  }
}

/** Resident set size in MB (0 once the process is gone). */
export function rssMb(pid: number): number {
  const fields = statFields(pid);
  return fields === null ? 0 : (Number(fields[21]) * PAGE_BYTES) / 1024 / 1024;
}
