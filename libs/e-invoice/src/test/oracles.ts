import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The outside e-invoice validators (`shared/einvoice`, beside the repository: `../shared` from the main checkout and
 * in CI, `../../shared` from a work tree). Not found is a failure, never a skip.
 */
export function einvoiceOracleDir(): string {
  const root = resolve(__dirname, '../../../..'); // libs/e-invoice/src/test → the repository
  const found = [join(root, '../shared/einvoice'), join(root, '../../shared/einvoice')].find((dir) => existsSync(join(dir, 'bin/cii-validate')));
  if (!found) throw new Error(`shared/einvoice not found beside ${root} (../shared or ../../shared): the outside validators are missing`);
  return found;
}

export interface OracleRun {
  exitCode: number;
  output: string;
}

/** `cii-validate PROFILE FILE`: exit 0 and "is valid" when the XSD, the Factur-X Schematron and the EN 16931 rules pass. */
export function ciiValidate(profile: string, file: string): Promise<OracleRun> {
  return new Promise((done) => {
    execFile(join(einvoiceOracleDir(), 'bin/cii-validate'), [profile, file], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const exitCode = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ exitCode, output: `${stdout}${stderr}` });
    });
  });
}
