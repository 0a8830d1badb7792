// Builds the publishable package of @docrender/client into dist/packages/client/ (publish with
// `npm publish dist/packages/client`); with --pack (`npm run client:package`) also its tarball,
// dist/packages/docrender-client-<version>.tgz, which users install with `npm install <that file>`:
//   lib/libs/client/src    the SDK (JavaScript + declarations)
//   lib/libs/webhooks/src  the shared webhook verifier and callback parser the SDK re-exports
//   lib/libs/contracts/src the wire types as declarations (decorator-free .d.ts), and as JavaScript only the contracts'
//                          decorator-free entry (src/values.ts) and the modules it requires
//   lib/apps/cli/src       the `docrender` command-line tool (package.json "bin")
// In the JavaScript, `@docrender/contracts` resolves to that entry, so neither the SDK nor the shared webhook library
// loads NestJS, class-validator or class-transformer at runtime.
// The build fails when an output file requires anything but Node built-ins and files of the package.
import { transformFile } from '@swc/core';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const libRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(libRoot, '../..');
const outDir = path.join(repoRoot, 'dist/packages/client');
const libOut = path.join(outDir, 'lib');
const quiet = process.argv.includes('--quiet');

/** Sources compiled to JavaScript, and what `@docrender/*` means inside them. */
const SOURCES = ['libs/client/src', 'libs/webhooks/src', 'apps/cli/src'];
/** Compiled with the modules it requires (not its whole folder: the contracts' DTO modules need NestJS). */
const CONTRACT_VALUES = 'libs/contracts/src/values.ts';
const RUNTIME_ALIASES = {
  '@docrender/client': 'libs/client/src/index.ts',
  '@docrender/webhooks': 'libs/webhooks/src/index.ts',
  '@docrender/contracts': CONTRACT_VALUES,
  '@docrender/contracts/values': CONTRACT_VALUES,
};
/** What the declarations' `@docrender/*` specifiers point at (the contracts' own types). */
const TYPE_ALIASES = {
  '@docrender/client': 'libs/client/src/index',
  '@docrender/webhooks': 'libs/webhooks/src/index',
  '@docrender/contracts': 'libs/contracts/src/index',
  '@docrender/contracts/values': 'libs/contracts/src/values',
};
const FORBIDDEN_IN_DECLARATIONS = /['"](@nestjs\/[^'"]*|class-validator|class-transformer|reflect-metadata|typeorm|pg|amqplib|minio|puppeteer)['"]/;

// `*.repository.ts` files run only in the service's repository (the CLI's `check` needs the template compiler and
// its dependencies, which the package does not have).
const isSource = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.(spec|int-spec|e2e-spec|repository)\.ts$/.test(f);

/** The paths of the files under `dir`, at any depth. */
async function filesUnder(dir) {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Compiles one source file to lib/; resolves with its JavaScript. */
async function compile(file) {
  const result = await transformFile(file, {
    filename: file,
    sourceMaps: false,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: false, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
      baseUrl: repoRoot,
      paths: Object.fromEntries(Object.entries(RUNTIME_ALIASES).map(([alias, target]) => [alias, [target]])),
    },
    // The annotation lets Node's ESM loader see the named exports: `import { DocrenderClient } from '@docrender/client'`.
    module: { type: 'commonjs', exportInteropAnnotation: true },
  });
  const out = path.join(libOut, path.relative(repoRoot, file).replace(/\.ts$/, '.js'));
  await fs.mkdir(path.dirname(out), { recursive: true });
  await fs.writeFile(out, result.code);
  return result.code;
}

/** Compiles `file` and, following their relative requires, the modules it loads; adds each to `compiled`. */
async function compileRequired(file, compiled) {
  if (compiled.has(file)) return;
  compiled.add(file);
  const code = await compile(file);
  const required = [...code.matchAll(/require\(["'](\.[^"']+)["']\)/g)].map(([, specifier]) => `${path.resolve(path.dirname(file), specifier)}.ts`);
  await Promise.all(required.map((next) => compileRequired(next, compiled)));
}

async function compileJavaScript() {
  const jobs = [];
  for (const source of SOURCES) {
    for (const file of await filesUnder(path.join(repoRoot, source))) {
      if (isSource(file)) jobs.push(compile(file));
    }
  }
  const contracts = new Set();
  jobs.push(compileRequired(path.join(repoRoot, CONTRACT_VALUES), contracts));
  await Promise.all(jobs);
  return jobs.length - 1 + contracts.size;
}

function emitDeclarations() {
  const tsc = createRequire(path.join(repoRoot, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(libRoot, 'tsconfig.package.json')], { cwd: repoRoot, stdio: 'inherit' });
}

/** Rewrites `@docrender/*` in the declarations to relative paths inside lib/, and refuses server-side packages. */
async function rewriteDeclarations() {
  for (const file of await filesUnder(libOut)) {
    if (!file.endsWith('.d.ts')) continue;
    let text = await fs.readFile(file, 'utf8');
    text = text.replace(/(['"])(@docrender\/[a-z-]+(?:\/[a-z-]+)?)\1/g, (match, quote, alias) => {
      const target = TYPE_ALIASES[alias];
      if (!target) throw new Error(`${path.relative(outDir, file)}: ${alias} is not part of the package`);
      let relative = path.relative(path.dirname(file), path.join(libOut, target)).split(path.sep).join('/');
      if (!relative.startsWith('.')) relative = `./${relative}`;
      return `${quote}${relative}${quote}`;
    });
    const forbidden = FORBIDDEN_IN_DECLARATIONS.exec(text);
    if (forbidden) throw new Error(`${path.relative(outDir, file)} refers to ${forbidden[1]}, which users' apps do not have`);
    await fs.writeFile(file, text);
  }
}

/** Every require of the JavaScript must be a Node built-in or a file of the package. */
async function checkRequires() {
  const builtins = new Set(builtinModules);
  for (const file of await filesUnder(libOut)) {
    if (!file.endsWith('.js')) continue;
    const text = await fs.readFile(file, 'utf8');
    for (const [, specifier] of text.matchAll(/require\(["']([^"']+)["']\)/g)) {
      if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(file), specifier);
        if (![target, `${target}.js`, path.join(target, 'index.js')].some((candidate) => existsSync(candidate) && candidate.endsWith('.js'))) {
          throw new Error(`${path.relative(outDir, file)} requires ${specifier}, which is not in the package`);
        }
      } else if (!specifier.startsWith('node:') && !builtins.has(specifier)) {
        throw new Error(`${path.relative(outDir, file)} requires ${specifier}: the package has no dependencies`);
      }
    }
  }
}

async function writeManifest() {
  const manifest = JSON.parse(readFileSync(path.join(libRoot, 'package.json'), 'utf8'));
  delete manifest.scripts;
  await fs.writeFile(path.join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await fs.copyFile(path.join(libRoot, 'README.md'), path.join(outDir, 'README.md'));
  await fs.copyFile(path.join(repoRoot, 'LICENSE'), path.join(outDir, 'LICENSE'));
  const bin = path.join(outDir, manifest.bin.docrender);
  const code = await fs.readFile(bin, 'utf8');
  if (!code.startsWith('#!')) await fs.writeFile(bin, `#!/usr/bin/env node\n${code}`);
  await fs.chmod(bin, 0o755);
}

const started = Date.now();
await fs.rm(outDir, { recursive: true, force: true });
const compiled = await compileJavaScript();
emitDeclarations();
await rewriteDeclarations();
await checkRequires();
await writeManifest();
if (!quiet) console.error(`build-package: ${compiled} file(s) compiled to ${path.relative(repoRoot, outDir)} in ${Date.now() - started} ms`);
if (process.argv.includes('--pack')) {
  // npm pack prints the tarball's file name last; the path goes to stdout alone, so scripts can capture it.
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const output = execFileSync(npm, ['pack', '--pack-destination', path.dirname(outDir), '--silent'], { cwd: outDir, encoding: 'utf8' });
  const tarball = path.join(path.dirname(outDir), output.trim().split('\n').pop());
  process.stdout.write(`${tarball}\n`);
  if (!quiet) console.error(`build-package: install it with  npm install ${tarball}`);
}
