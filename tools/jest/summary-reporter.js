// Prints the closing line CI reads: "N passed, N failed" (test cases), alone on the last line.
// Suites that fail to run at all (a syntax error, a failing beforeAll) count as one failure each.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed\n`);
  }
}
module.exports = SummaryReporter;
