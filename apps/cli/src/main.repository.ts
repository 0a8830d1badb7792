import { runCli } from './cli';
import { processIo } from './cli/cli-io';
import { COMMANDS } from './commands';
import { checkCommand } from './commands/check.repository';

// The repository's CLI (`npm run cli`): the published one plus `check`, which needs the template compiler and its
// dependencies (the published package has none). Exits once the command is done, as main.ts does.
void runCli(process.argv.slice(2), processIo(), [...COMMANDS, checkCommand]).then((code) => process.exit(code));
