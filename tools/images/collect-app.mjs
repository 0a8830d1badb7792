// Collects what each app runs into <out-dir>/<app>, which becomes the app's image's /app: the app's compiled entry points (main,
// worker threads, the container health check), every file of dist/ and node_modules they can reach (traced with
// @vercel/nft, which follows require/import, require.resolve, worker and asset paths), and the root package.json
// (GET /v1/meta/version reads it). Run inside the image build after `node tools/build.mjs`:
//
//   node tools/images/collect-app.mjs <out-dir> <app>...
//
// The apps are traced one after the other with one cache: a module that several apps reach is read and parsed once.
// Two rules keep the result honest: a file of a development-only package (package-lock.json marks it "dev") is never
// copied — a container never runs one-process mode, so a reach into one (the embedded PostgreSQL) is a lazy branch the
// image cannot take — and packages the code opens by a name computed at run time are listed in WHOLE_PACKAGES.
import { nodeFileTrace } from '@vercel/nft';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [outArg, ...apps] = process.argv.slice(2);
if (!outArg || apps.length === 0) {
  console.error('usage: node tools/images/collect-app.mjs <out-dir> <app>...');
  process.exit(2);
}

/** Packages opened by a computed name: when the file on the left is traced, the packages on the right go in whole. */
const WHOLE_PACKAGES = {
  // builtinFamily() resolves `${pkg}/package.json` for the family asked for (Inter, Noto Serif, Roboto Mono).
  'dist/libs/template-dsl/src/fonts/font-registry.js': ['@fontsource/inter', '@fontsource/noto-serif', '@fontsource/roboto-mono'],
};

/** Files an app reads by path at run time that no require reaches: the workspace's pages (tools/build.mjs's bundle). */
const APP_FILES = {
  workspace: ['dist/apps/workspace/web'],
};

async function* walk(dir) {
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}

/** The app's main, its worker-thread entries (started by path, `*.worker.js`) and its health check. */
async function entries(appDist) {
  const found = [path.join(appDist, 'main.js'), path.join(root, 'dist/libs/platform/src/meta/health-check.main.js')];
  for (const dir of [appDist, path.join(root, 'dist/libs')]) {
    for await (const file of walk(dir)) if (file.endsWith('.worker.js')) found.push(file);
  }
  for (const file of found) await fs.access(file);
  return found;
}

/** node_modules/<name> (scoped or not) of a path relative to the root, or undefined outside node_modules. */
function packageDirOf(relative) {
  const parts = relative.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const length = parts[at + 1]?.startsWith('@') ? 3 : 2;
  return parts.slice(0, at + length).join('/');
}

const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const developmentOnly = (pkgDir) => lock.packages[pkgDir]?.dev === true;

/** Copies what `app` runs into `out`; returns a one-line summary. */
async function collect(app, out, cache) {
  const started = Date.now();
  const { fileList, warnings } = await nodeFileTrace(await entries(path.join(root, 'dist/apps', app, 'src')), { base: root, processCwd: root, cache });
  const files = new Set([...fileList].filter((f) => !f.startsWith('..')));
  for (const [trigger, packages] of Object.entries(WHOLE_PACKAGES)) {
    if (!files.has(trigger)) continue;
    for (const pkg of packages) for await (const file of walk(path.join(root, 'node_modules', pkg))) files.add(path.relative(root, file));
  }
  for (const dir of APP_FILES[app] ?? []) for await (const file of walk(path.join(root, dir))) files.add(path.relative(root, file));
  files.add('package.json');

  const skipped = new Set();
  let bytes = 0;
  let copied = 0;
  for (const file of [...files].sort()) {
    if (file.endsWith('.map') || file.endsWith('.d.ts')) continue;
    const pkgDir = packageDirOf(file);
    if (pkgDir !== undefined && developmentOnly(pkgDir)) {
      skipped.add(pkgDir);
      continue;
    }
    const source = path.join(root, file);
    const stat = await fs.lstat(source);
    if (stat.isDirectory()) continue;
    const target = path.join(out, file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (stat.isSymbolicLink()) await fs.symlink(await fs.readlink(source), target);
    else await fs.copyFile(source, target);
    bytes += stat.size;
    copied++;
  }
  const packages = new Set([...files].map(packageDirOf).filter((p) => p !== undefined && !skipped.has(p)));
  return (
    `collect-app ${app}: ${copied} files, ${packages.size} packages, ${(bytes / 1048576).toFixed(1)} MiB in ${Date.now() - started} ms` +
      (skipped.size > 0 ? `; development-only, left out: ${[...skipped].sort().join(', ')}` : '') +
      (warnings.size > 0 ? `; ${warnings.size} trace warning(s)` : '')
  );
}

const cache = {};
for (const app of apps) console.error(await collect(app, path.join(path.resolve(outArg), app), cache));
