// Prints the closing line CI reads: "N passed, N failed" (test cases), as the very last line of the run.
// Suites that fail to run at all (a syntax error, a failing beforeAll) count as one failure each.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    // tools/run-tests.mjs runs jest twice and prints one line for both.
    if (process.env.DOCRENDER_TEST_SUMMARY === 'off') return;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed`;
    // jest's own summary is written after the reporters return; print ours when the process ends.
    process.on('exit', () => process.stdout.write(`\n${line}\n`));
  }
}
module.exports = SummaryReporter;
