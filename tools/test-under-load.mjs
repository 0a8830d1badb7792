// `npm run test:under-load`: the test half of `npm test` (tools/run-tests.mjs, every jest project) with a CPU hog
// beside it — twice as many busy processes as the machine has cores, at normal priority — as on a shared CI machine.
// Tests must wait on events, never on the machine being fast (docs/testing.md): this run shows it. Arguments are
// passed on to jest (e.g. a path to run one file under load). The closing line is run-tests.mjs's "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const hogs = Array.from({ length: 2 * availableParallelism() }, () =>
  spawn(process.execPath, ['-e', 'for (;;) Math.sqrt(Math.random());'], { stdio: 'ignore' }),
);
const stopHogs = () => {
  for (const hog of hogs) hog.kill('SIGKILL');
};
process.on('exit', stopHogs);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
console.log(`[tests] under load: ${hogs.length} busy processes beside the suite`);
const result = spawnSync(process.execPath, [path.join(root, 'tools', 'run-tests.mjs'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
// the hogs' handles keep this process alive: stopped here, it ends with the suite
stopHogs();
process.exitCode = result.status ?? 1;
