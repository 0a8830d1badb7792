// The test half of `npm test`: one jest run of every unit, integration and end-to-end test (2 workers), then the
// serial specs (*.serial-spec.ts: tests that stop and start the machine's RabbitMQ) alone, one at a time, so a broker
// restart never cuts another test's connections. Prints one closing line for both: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const passthrough = process.argv.slice(2);
const resultsDir = mkdtempSync(path.join(tmpdir(), 'docrender-tests-'));

const runs = [
  { name: 'parallel', args: ['--selectProjects', 'unit', 'int', 'e2e', '--passWithNoTests'] },
  { name: 'serial', args: ['--selectProjects', 'serial', '--runInBand', '--passWithNoTests'] },
];

let passed = 0;
let failed = 0;
let exitCode = 0;
for (const run of runs) {
  const resultsFile = path.join(resultsDir, `${run.name}.json`);
  const result = spawnSync(process.execPath, [jest, ...run.args, '--json', `--outputFile=${resultsFile}`, ...passthrough], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DOCRENDER_TEST_SUMMARY: 'off' },
  });
  let results;
  try {
    results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  } catch {
    // jest stopped before writing results (a configuration error): one failure, and say so.
    console.error(`[tests] the ${run.name} jest run produced no results (exit ${result.status ?? result.signal})`);
    failed += 1;
    exitCode = result.status || 1;
    continue;
  }
  passed += results.numPassedTests;
  failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
  if (result.status !== 0) exitCode = result.status || 1;
}
rmSync(resultsDir, { recursive: true, force: true });
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 && exitCode === 0 ? 1 : exitCode);
