// Compiles every TypeScript source of the workspace (apps, libs, tools, bench) to dist/ with SWC,
// rewriting the @docrender/* path aliases of tsconfig.base.json to relative requires, so that
// `node dist/apps/<app>/src/main.js` runs with no loader. Type checking is `npm run typecheck` (tsc).
// Incremental: a file is recompiled only when its source is newer than its output.
import { transformFile } from '@swc/core';
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

async function* walk(dir) {
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

const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
    baseUrl: root,
    paths: tsconfig.compilerOptions.paths,
  },
  module: { type: 'commonjs' },
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
await Promise.all(jobs);
if (!quiet || compiled > 0) {
  console.error(`build: compiled ${compiled} file(s) to dist/ in ${Date.now() - started} ms`);
}
