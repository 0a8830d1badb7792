import { execFile, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { descendantsOf, ensureBuilt, freePort, readProcessStat, REPO_ROOT, startAppProcess, type AppProcess } from '@docrender/testing';
import { DEMO_IDS, type DemoKeys } from './demo-organisation';

const run = promisify(execFile);

/** The fenced blocks of a Markdown text in one language, in order. */
function fencedBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^```([a-z]*)\n([\s\S]*?)^```$/gm)].filter(([, lang]) => lang === language).map(([, , body]) => body);
}

/** Pixels of a binary PPM (pdftoppm's output) in the green of the test's logo.svg (#00aa55), give or take. */
function greenPixels(ppm: Buffer): number {
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 50).toString('latin1'));
  if (header === null) throw new Error('not a binary PPM');
  let count = 0;
  for (let i = header[0].length; i + 2 < ppm.length; i += 3) {
    if (ppm[i] < 60 && ppm[i + 1] > 130 && ppm[i + 1] < 210 && ppm[i + 2] > 40 && ppm[i + 2] < 130) count++;
  }
  return count;
}

/** Processes of `pids` still alive (zombies count as gone: their parent has not reaped them yet, but they run nothing). */
const alive = (pids: readonly number[]): number[] => pids.filter((pid) => {
  const stat = readProcessStat(pid);
  return stat !== null && stat.state !== 'Z';
});

/** npm start's port and its own places under `dir` (a reader's are the defaults under .data/). */
const startPlaces = (dir: string, port: number): Record<string, string> => ({
  PORT: String(port),
  EMBEDDED_PG_DATA_DIR: path.join(dir, 'postgres'),
  BLOB_DIR: path.join(dir, 'blobs'),
  DEMO_KEYS_FILE: path.join(dir, 'demo-keys.json'),
});

/** What a reader's shell passes on: PATH and HOME, nothing of this machine's environment besides. */
const READER_SHELL = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };

jest.setTimeout(240_000);

/**
 * The README's first command: `npm start` with no infrastructure configured starts the whole service in one process
 * on embedded PostgreSQL, the in-process bus and the filesystem blob store, seeds the demo organisation, and renders.
 */
describe('one-process mode (npm start) on embedded defaults', () => {
  let dir: string;
  let port: number;
  let app: AppProcess;

  beforeAll(async () => {
    await ensureBuilt();
    dir = await mkdtemp(path.join(tmpdir(), 'docrender-standalone-'));
    // As root, the embedded PostgreSQL runs as `postgres`, which must pass through the data directory's parents.
    await chmod(dir, 0o755);
    port = await freePort();
    app = startAppProcess('apps/standalone/src/main.js', { ...startPlaces(dir, port), LOG_LEVEL: 'warn' });
    await app.waitForOutput(/Document rendering service running at/, 180_000);
  });

  afterAll(async () => {
    await app?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the base URL, both demo keys and a curl that renders the sample invoice', async () => {
    const keys = JSON.parse(await readFile(path.join(dir, 'demo-keys.json'), 'utf8')) as DemoKeys;
    const out = app.output();
    expect(out).toContain(`http://localhost:${port}`);
    expect(out).toContain(keys.testKey);
    expect(out).toContain(keys.productionKey);
    expect(out).toContain(`curl -fsS -X POST 'http://localhost:${port}/v1/render/${DEMO_IDS.invoice}'`);
  });

  it('issue 17: with the public development secrets it starts, but warns and names them', () => {
    expect(app.output()).toMatch(/running with the public development secrets.*VIEW_URL_SECRET, API_KEY_PEPPER/);
  });

  it('4.17: the status probe answers 200 on embedded PostgreSQL and the filesystem blob store', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/meta/status`);
    expect(res.status).toBe(200);
  });

  it('serves the API documentation: Swagger UI at /docs and the OpenAPI document at /docs-json', async () => {
    const ui = await fetch(`http://127.0.0.1:${port}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
    const json = (await (await fetch(`http://127.0.0.1:${port}/docs-json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(json.openapi).toMatch(/^3\./);
    expect(Object.keys(json.paths)).toContain('/v1/render/{templateId}');
  });

  it('renders the sample invoice with the printed test key, exactly as the printed curl does', async () => {
    const keys = JSON.parse(await readFile(path.join(dir, 'demo-keys.json'), 'utf8')) as DemoKeys;
    const body = await readFile(path.join(REPO_ROOT, 'examples/invoice/request.json'), 'utf8');
    const res = await fetch(`http://127.0.0.1:${port}/v1/render/${DEMO_IDS.invoice}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${keys.testKey}`, Accept: 'application/pdf', 'Content-Type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/pdf/);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const file = path.join(dir, 'invoice.pdf');
    await writeFile(file, pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    const data = (JSON.parse(body) as { documents: Array<{ number?: unknown }> }).documents[0];
    expect(text).toContain(String(data.number));
    expect(Number(res.headers.get('x-service-page-count'))).toBeGreaterThanOrEqual(2);
  });

  it('issue 37 item 4: Swagger UI sends "Try it out" to the host it was loaded from (a relative server)', async () => {
    const json = (await (await fetch(`http://127.0.0.1:${port}/docs-json`)).json()) as { servers: { url: string }[] };
    expect(json.servers.map((s) => s.url)).toEqual(['/']);
  });

  it('issue 37 item 4: every shell block of docs/api.md runs as written, in order, against the demo organisation; its TypeScript snippet type-checks under strict and runs', async () => {
    const guide = await readFile(path.join(REPO_ROOT, 'docs/api.md'), 'utf8');
    const shell = fencedBlocks(guide, 'sh');
    const typescript = fencedBlocks(guide, 'ts');
    expect(shell.length).toBeGreaterThanOrEqual(14);
    expect(typescript).toHaveLength(1);
    // A folder like the repository's as a reader has it: examples, docs and node_modules, plus the snippet saved
    // under the name its first line gives.
    const work = await mkdtemp(path.join(tmpdir(), 'docrender-api-guide-'));
    try {
      for (const name of ['examples', 'docs', 'node_modules']) await symlink(path.join(REPO_ROOT, name), path.join(work, name));
      const snippetFile = /^\/\/ (src\/[\w-]+\.ts):/.exec(typescript[0])?.[1];
      expect(snippetFile).toBeDefined();
      await mkdir(path.join(work, 'src'));
      await writeFile(path.join(work, snippetFile as string), typescript[0]);
      const script = ['set -euo pipefail', ...shell.map((block, i) => `echo "--- docs/api.md shell block ${i + 1}" >&2\n${block}`)].join('\n');
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), DEMO_KEYS_FILE: path.join(dir, 'demo-keys.json') };
      const result = await run('bash', ['-c', script], { cwd: work, env, timeout: 180_000, maxBuffer: 32 * 1024 * 1024 }).catch(
        (error: { code: number; stdout: string; stderr: string }) => ({ failed: error.code, stdout: error.stdout, stderr: error.stderr }),
      );
      expect('failed' in result ? `exit ${result.failed}:\n${result.stderr.slice(-4000)}` : 'every block ran').toBe('every block ran');
      for (const pdf of ['invoice.pdf', 'hello.pdf', 'letter-de.pdf', 'stored-invoice.pdf', 'invoice-from-ts.pdf']) {
        expect([pdf, (await readFile(path.join(work, pdf))).subarray(0, 5).toString()]).toEqual([pdf, '%PDF-']);
      }
      expect((await readFile(path.join(work, 'preview.png'))).subarray(1, 4).toString()).toBe('PNG');

      const helpers = ['openapi-fetch', 'openapi-typescript-helpers'];
      const compilerOptions = {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        lib: ['es2022', 'dom'],
        types: ['node'],
        typeRoots: [path.join(REPO_ROOT, 'node_modules/@types')],
        paths: Object.fromEntries(helpers.map((p) => [p, [path.join(REPO_ROOT, 'node_modules', p)]])),
      };
      await writeFile(path.join(work, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [snippetFile] }));
      const tsc = await run(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', work], { cwd: work }).catch((error: { stdout: string }) => ({
        stdout: error.stdout,
      }));
      expect(tsc.stdout).toBe('');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('issue 37 item 4: the shell blocks of docs/template-dsl.md and docs/seed-file.md run as written against the demo organisation, the admin CLI on npm start\'s database', async () => {
    const dslGuide = await readFile(path.join(REPO_ROOT, 'docs/template-dsl.md'), 'utf8');
    const seedGuide = await readFile(path.join(REPO_ROOT, 'docs/seed-file.md'), 'utf8');
    const setup = fencedBlocks(await readFile(path.join(REPO_ROOT, 'docs/api.md'), 'utf8'), 'sh')[0];
    const [tryIt, ...adminBlocks] = fencedBlocks(dslGuide, 'bash');
    expect(adminBlocks).toHaveLength(2);
    // the admin blocks (font, assets) and the seed file first: the "Try it" curl renders the example that needs brand/logo
    const blocks = [...adminBlocks, ...fencedBlocks(seedGuide, 'bash'), tryIt];
    expect(blocks).toHaveLength(4);
    // the runnable example the guide gives for an organisation with the asset brand/logo, saved as example.json
    const assetExample = /named `brand\/logo`:\n\n```json\n([\s\S]*?)^```$/m.exec(dslGuide)?.[1];
    expect(assetExample).toBeDefined();
    // A folder like the repository's as a reader has it, with their own logo.svg; the admin CLI (npm run admin) builds
    // nothing new and reaches the embedded PostgreSQL npm start runs, as the guides say.
    const work = await mkdtemp(path.join(tmpdir(), 'docrender-dsl-guide-'));
    try {
      for (const name of ['examples', 'docs', 'node_modules', 'package.json', 'tools', 'dist']) await symlink(path.join(REPO_ROOT, name), path.join(work, name));
      await writeFile(path.join(work, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="15"><rect width="40" height="15" fill="#0a5"/></svg>');
      await writeFile(path.join(work, 'example.json'), assetExample as string);
      const script = ['set -euo pipefail', setup, ...blocks.map((block, i) => `echo "--- guide shell block ${i + 1}" >&2\n${block}`)].join('\n');
      const env = { ...READER_SHELL, ...startPlaces(dir, port), LOG_LEVEL: 'warn' };
      const result = await run('bash', ['-c', script], { cwd: work, env, timeout: 300_000, maxBuffer: 32 * 1024 * 1024 }).catch(
        (error: { code: number; stdout: string; stderr: string }) => ({ failed: error.code, stdout: error.stdout, stderr: error.stderr }),
      );
      expect('failed' in result ? `exit ${result.failed}:\n${result.stderr.slice(-4000)}` : 'every block ran').toBe('every block ran');
      expect((await readFile(path.join(work, 'example.pdf'))).subarray(0, 5).toString()).toBe('%PDF-');

      // the example drew the asset add-asset stored: its green shows on the page (a missing asset draws nothing)
      const ppm = execFileSync('pdftoppm', ['-r', '30', '-f', '1', '-l', '1', path.join(work, 'example.pdf')]);
      expect(greenPixels(ppm)).toBeGreaterThan(20);
      // remove-asset took brand/old-logo away again; brand/logo stays (the filesystem store keeps a content type beside each blob)
      const assets = path.join(dir, 'blobs', 'orgs', DEMO_IDS.organisation, 'assets', 'brand');
      expect((await readdir(assets)).filter((name) => !name.endsWith('.content-type'))).toEqual(['logo']);
      const keys = JSON.parse(await readFile(path.join(dir, 'demo-keys.json'), 'utf8')) as DemoKeys;
      // add-font gave the demo organisation the certificate's family
      const fonts = (await (await fetch(`http://127.0.0.1:${port}/v1/fonts?search=Great`, { headers: { Authorization: `Bearer ${keys.testKey}` } })).json()) as { items: { family: string }[] };
      expect(fonts.items.map((f) => f.family)).toContain('Great Vibes');
      // the seed file's organisation answers to the key it lists
      const acme = await fetch(`http://127.0.0.1:${port}/v1/templates`, { headers: { Authorization: 'Bearer service_test_acmeExampleTestKey000000000' } });
      expect(acme.status).toBe(200);
      expect(((await acme.json()) as { items: { name: string }[] }).items.map((t) => t.name)).toEqual(['Invoice']);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 420_000);

  it('issue 37 item 4: stops cleanly on SIGTERM, the embedded PostgreSQL with it', async () => {
    const tree = descendantsOf(app.pid);
    expect(tree.length).toBeGreaterThan(0);
    const exit = await app.stop('SIGTERM', 30_000);
    expect(exit).toBe(0);
    expect(alive(tree)).toEqual([]);
  });
});

describe('issue 37 item 4: npm start as a user runs it', () => {
  it('shows the start banner within the first screen at the default log level, and SIGINT to npm stops the server and its embedded PostgreSQL', async () => {
    await ensureBuilt();
    const dir = await mkdtemp(path.join(tmpdir(), 'docrender-npm-start-'));
    await chmod(dir, 0o755);
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: REPO_ROOT,
      env: { ...READER_SHELL, ...startPlaces(dir, port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | string>((resolve) => npm.once('exit', (code, signal) => resolve(signal ?? code ?? 0)));
    try {
      await new Promise<void>((resolve, reject) => {
        // a safety net, not a speed bound: on a busy machine the embedded PostgreSQL alone can take minutes
        const timer = setTimeout(() => reject(new Error(`no banner within 10 minutes:\n${output}`)), 600_000);
        const onData = (chunk: Buffer): void => {
          output += chunk.toString();
          if (output.includes('Render the sample invoice')) {
            clearTimeout(timer);
            resolve();
          }
        };
        npm.stdout.on('data', onData);
        npm.stderr.on('data', onData);
        void exited.then(() => reject(new Error(`npm start exited:\n${output}`)));
      });
      const lines = output.split('\n');
      const bannerAt = lines.findIndex((line) => line.startsWith('Document rendering service running at'));
      // A terminal's first screen is 24 lines: npm's own header, what the apps say at info, and the banner to its curl.
      const bannerEnd = lines.findIndex((line) => line.includes('--output invoice.pdf'));
      const fits = bannerAt >= 0 && bannerEnd > bannerAt && bannerEnd < 24;
      expect(fits ? 'within the first screen' : lines.slice(0, bannerAt + 1).map((line) => line.slice(0, 140)).join('\n')).toBe('within the first screen');

      const tree = descendantsOf(npm.pid as number);
      const postgres = tree.filter((pid) => commandOf(pid).startsWith('postgres'));
      expect(postgres.length).toBeGreaterThan(0);
      npm.kill('SIGINT');
      // a safety net, not a speed bound: a process that lost the signal would otherwise hold the test until jest's timeout
      const stopped = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve(`still running 5 minutes after SIGINT:\n${output}`), 300_000).unref())]);
      expect(stopped).toBe(0);
      await waitUntil(() => alive(tree).length === 0, 30_000);
      expect(alive(tree)).toEqual([]);
    } finally {
      if (npm.exitCode === null && npm.signalCode === null) {
        // A failed assertion above: stop the server the way a user would, and kill what is left after a grace period.
        const tree = descendantsOf(npm.pid as number);
        npm.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
        for (const pid of [npm.pid as number, ...alive(tree)]) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
      await rm(dir, { recursive: true, force: true });
    }
  }, 900_000);
});

/** A process's command name, '' once it is gone. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8');
  } catch {
    return '';
  }
}

/** Polls `done` until it holds (processes leave /proc when their parent reaps them). */
async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
}
