// Compiles every TypeScript source of the workspace (apps, libs, tools, bench) to dist/ with SWC,
// rewriting the @docrender/* path aliases of tsconfig.base.json to relative requires, so that
// `node dist/apps/<app>/src/main.js` runs with no loader. Type checking is `npm run typecheck` (tsc).
// Incremental: a file is recompiled only when its source is newer than its output.
// The workspace's front-end (apps/workspace/web) is bundled for browsers with esbuild instead (buildWorkspaceWeb).
import { transformFile } from '@swc/core';
import { build as esbuild } from 'esbuild';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist');
const quiet = process.argv.includes('--quiet');
const roots = ['apps', 'libs', 'tools', 'bench'];
const tsconfig = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
const isSource = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(f);
const copied = (f) => /\.(json|css|html|sql)$/.test(f) && !f.endsWith('project.json') && !f.includes(`${path.sep}fixtures${path.sep}`);

/** Browser sources: bundled by esbuild below, not compiled for Node. */
const webDir = path.join(root, 'apps', 'workspace', 'web');

async function* walk(dir) {
  if (dir === webDir) return;
  let entries;
  try { entries = await fs.readdir(dir, { withFileTypes: true }); } catch { return; }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { if (e.name !== 'node_modules') yield* walk(p); } else yield p;
  }
}

async function newer(src, out) {
  try { return (await fs.stat(src)).mtimeMs > (await fs.stat(out)).mtimeMs; } catch { return true; }
}

// The compile options the tests use too (jest.config.js), plus the path aliases and source maps.
const compileOptions = JSON.parse(readFileSync(path.join(root, 'tools', 'swc-options.json'), 'utf8'));
const swcOptions = {
  ...compileOptions,
  jsc: { ...compileOptions.jsc, baseUrl: root, paths: tsconfig.compilerOptions.paths },
  sourceMaps: true,
};

const started = Date.now();
let compiled = 0;
const jobs = [];
for (const r of roots) {
  for await (const file of walk(path.join(root, r))) {
    const rel = path.relative(root, file);
    if (isSource(file)) {
      const out = path.join(outDir, rel.replace(/\.ts$/, '.js'));
      if (!(await newer(file, out))) continue;
      jobs.push((async () => {
        const result = await transformFile(file, { ...swcOptions, filename: file, sourceFileName: path.relative(path.dirname(out), file) });
        await fs.mkdir(path.dirname(out), { recursive: true });
        await fs.writeFile(out, `${result.code}\n//# sourceMappingURL=${path.basename(out)}.map\n`);
        await fs.writeFile(`${out}.map`, result.map ?? '');
        compiled++;
      })());
    } else if (copied(file)) {
      const out = path.join(outDir, rel);
      if (!(await newer(file, out))) continue;
      jobs.push(fs.mkdir(path.dirname(out), { recursive: true }).then(() => fs.copyFile(file, out)));
    }
  }
}

/**
 * The workspace's pages (issue 35): one ES module bundle (CodeMirror, pdf.js, the pages' code) with
 * its stylesheet, index.html and pdf.js's worker, written to dist/apps/workspace/web and served as static files.
 * Skipped when the bundle is newer than every input.
 */
async function buildWorkspaceWeb() {
  const out = path.join(outDir, 'apps', 'workspace', 'web');
  const bundle = path.join(out, 'app.js');
  const lock = path.join(root, 'package-lock.json');
  const walkWeb = async () => {
    let latest = 0;
    for await (const file of (async function* all(dir) {
      for (const e of await fs.readdir(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) yield* all(p); else yield p;
      }
    })(webDir)) latest = Math.max(latest, (await fs.stat(file)).mtimeMs);
    return latest;
  };
  let built = 0;
  try { built = (await fs.stat(bundle)).mtimeMs; } catch { built = 0; }
  const inputs = Math.max(await walkWeb(), (await fs.stat(lock)).mtimeMs, (await fs.stat(fileURLToPath(import.meta.url))).mtimeMs);
  if (built > inputs) return false;
  await fs.mkdir(out, { recursive: true });
  await esbuild({
    entryPoints: [path.join(webDir, 'src', 'main.ts')],
    outfile: bundle,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  await Promise.all([
    fs.copyFile(path.join(webDir, 'index.html'), path.join(out, 'index.html')),
    fs.copyFile(path.join(webDir, 'app.css'), path.join(out, 'app.css')),
    fs.copyFile(path.join(root, 'node_modules', 'pdfjs-dist', 'build', 'pdf.worker.min.mjs'), path.join(out, 'pdf.worker.min.mjs')),
  ]);
  return true;
}

await Promise.all(jobs);
const webStarted = Date.now();
const webBuilt = await buildWorkspaceWeb();
if (!quiet || compiled > 0) {
  console.error(`build: compiled ${compiled} file(s) to dist/ in ${Date.now() - started} ms`);
}
if (webBuilt) console.error(`build: bundled the workspace pages in ${Date.now() - webStarted} ms`);
