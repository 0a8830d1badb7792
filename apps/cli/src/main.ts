import { runCli } from './cli';
import { processIo } from './cli/cli-io';

// process.exit once the command is done: output to files and pipes is synchronous on Linux, and idle keep-alive
// connections must not hold the process open.
void runCli(process.argv.slice(2), processIo()).then((code) => process.exit(code));
