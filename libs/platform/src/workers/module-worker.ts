import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Runs a worker module from TypeScript sources (the test runner, which loads this file as .ts): SWC compiles each
 * .ts file as it is required, with the options of the tests and the build (tools/swc-options.json), and the
 * @docrender/* aliases of tsconfig.base.json resolve to their sources. The compiled build (dist/) needs none of it: there the worker module is plain JavaScript.
 */
const TYPESCRIPT_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
let root = path.dirname(workerData.entry);
while (!fs.existsSync(path.join(root, 'tsconfig.base.json'))) {
  if (path.dirname(root) === root) throw new Error('tsconfig.base.json not found above ' + workerData.entry);
  root = path.dirname(root);
}
const swc = Module.createRequire(path.join(root, 'package.json'))('@swc/core');
const aliases = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths;
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const alias = aliases[request];
  return resolveFilename.call(this, alias ? path.join(root, alias[0]) : request, ...rest);
};
const options = JSON.parse(fs.readFileSync(path.join(root, 'tools', 'swc-options.json'), 'utf8'));
require.extensions['.ts'] = (module, filename) => module._compile(swc.transformFileSync(filename, { ...options, filename }).code, filename);
require(workerData.entry);
`;

/**
 * Starts a worker thread running the module `entry` (an absolute path without extension, next to the caller):
 * `entry.js` in the compiled build, `entry.ts` from sources (when this file runs as TypeScript, under the test runner).
 */
export function startModuleWorker(entry: string, name: string, resourceLimits?: ResourceLimits): Worker {
  if (__filename.endsWith('.js')) return new Worker(`${entry}.js`, { name, resourceLimits });
  return new Worker(TYPESCRIPT_BOOTSTRAP, { eval: true, name, resourceLimits, workerData: { entry: `${entry}.ts` } });
}
