import { readdirSync, readFileSync } from 'node:fs';

/** Live Chromium renderer processes among the descendants of `ancestor` (the render service's pid). */
export function rendererProcessesUnder(ancestor: number): number[] {
  const processes = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return { pid: Number(name), state: fields[0], ppid: Number(fields[1]) };
      } catch {
        return null;
      }
    })
    .filter((p): p is { pid: number; state: string; ppid: number } => p !== null);
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

/** Kills every Chromium renderer under `ancestor` every `everyMs` until the returned stop() is called. */
export function crashLoop(ancestor: number, everyMs = 50): { stop(): Promise<number> } {
  let running = true;
  let kills = 0;
  const loop = (async () => {
    while (running) {
      for (const pid of rendererProcessesUnder(ancestor)) {
        try {
          process.kill(pid, 'SIGKILL');
          kills++;
        } catch {
          // gone already
        }
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return kills;
    },
  };
}
