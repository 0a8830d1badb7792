import { mkdtempSync, rmSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { renderBudgetSettings, renderSettings } from '@docrender/config';
import { declaredSetting, environmentProblems } from './support/declared-settings';
import { execForm, parseDockerfile } from './support/dockerfile';
import { REPO_ROOT, runTool } from './support/external-tool';
import { SERVING_APPS } from './support/images';
import { quantity, renderServiceMemoryMib } from './support/resources';

/** A service as `docker-compose config` prints it (the fields the checks read). */
type ComposeService = {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  restart?: string;
  profiles?: string[];
  container_name?: string;
  stop_grace_period?: string;
  cpus?: number | string;
  mem_limit?: string;
  read_only?: boolean;
  tmpfs?: string[];
  volumes?: string[];
  network_mode?: string;
};
type ComposeFile = { services: Record<string, ComposeService>; volumes?: Record<string, unknown> };

/**
 * Dependency images, each pinned to a release (checked against this list, offline). The object store, SeaweedFS, is
 * pinned to a release tag and the digest of its multi-arch index as well (decision record 0017).
 */
const DEPENDENCY_IMAGES = /^(postgres:\d+(\.\d+)?-bookworm|rabbitmq:\d+\.\d+-management|chrislusf\/seaweedfs:\d+\.\d+@sha256:[0-9a-f]{64})$/;

/**
 * `docker-compose config` (Debian's docker-compose v1) parses and validates docker-compose.yml, resolves anchors and
 * `${…:-default}` interpolation, and prints the result. It runs with an empty environment and an empty env file, so
 * the defaults in the file are what is checked, whatever the machine's environment or a local .env say.
 */
function composeConfig(files = ['docker-compose.yml']): ComposeFile {
  const dir = mkdtempSync(path.join(tmpdir(), 'docrender-compose-'));
  try {
    const envFile = path.join(dir, 'empty.env');
    writeFileSync(envFile, '');
    const output = runTool('docker-compose', [...files.flatMap((f) => ['-f', f]), '--env-file', envFile, 'config'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir },
      installHint: 'Install Debian\'s docker-compose (apt-get install -y docker-compose); no Docker engine is needed for `config`.',
    });
    return parse(output) as ComposeFile;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const secondsOf = (duration: string | undefined): number => {
  const match = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(duration ?? '');
  if (!match || duration === '') throw new Error(`not a duration: ${duration}`);
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
};

describe('docker-compose.yml (docker-compose config)', () => {
  let compose: ComposeFile;
  beforeAll(() => {
    compose = composeConfig();
  });
  const service = (name: string): ComposeService => {
    const found = compose.services[name];
    if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
    return found;
  };

  it('parses and holds PostgreSQL, RabbitMQ, SeaweedFS, the migration task, the four apps, the workspace (issue 35) and the admin tool', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['admin', 'api-gateway', 'job-worker', 'migrate', 'postgres', 'rabbitmq', 'render-service', 'seaweedfs', 'webhook-dispatcher', 'workspace'].sort(),
    );
  });

  it('every service is built from a Dockerfile of this repository for its app, or pulls a pinned dependency image', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      if (s.build) {
        expect(path.resolve(s.build.context)).toBe(REPO_ROOT);
        const file = path.join(REPO_ROOT, s.build.dockerfile);
        expect({ name, dockerfile: existsSync(file) }).toEqual({ name, dockerfile: true });
        const app = path.basename(s.build.dockerfile, '.Dockerfile');
        expect(s.image).toBe(`docrender/${app}:local`);
        const runtime = parseDockerfile(readFileSync(file, 'utf8')).stages.at(-1);
        const runs = [...(runtime?.instructions ?? [])].filter((i) => i.keyword === 'CMD' || i.keyword === 'ENTRYPOINT').flatMap((i) => execForm(i.args));
        expect(runs).toContain(`dist/apps/${app}/src/main.js`);
      } else {
        expect({ name, image: s.image }).toEqual({ name, image: expect.stringMatching(DEPENDENCY_IMAGES) });
      }
    }
    for (const { app } of SERVING_APPS) expect(service(app).build?.dockerfile).toBe(`deploy/docker/${app}.Dockerfile`);
    expect(service('migrate').image).toBe('docrender/admin-cli:local');
    expect(service('rabbitmq').ports).toContain('127.0.0.1:15672:15672/tcp');
  });

  it('every long-running service has a health check; the one-shot tasks run once and are waited for until they succeed', () => {
    const oneShot = Object.entries(compose.services).filter(([, s]) => s.restart === 'no').map(([name]) => name);
    expect(oneShot).toEqual(['migrate']);
    for (const [name, s] of Object.entries(compose.services)) {
      if (oneShot.includes(name) || s.profiles?.includes('tools')) continue;
      expect({ name, hasHealthcheck: (s.healthcheck?.test.length ?? 0) > 1 }).toEqual({ name, hasHealthcheck: true });
      expect(s.healthcheck?.test[0]).toMatch(/^CMD(-SHELL)?$/);
      for (const [dependency, { condition }] of Object.entries(s.depends_on ?? {})) {
        expect({ name, dependency, condition }).toEqual({ name, dependency, condition: oneShot.includes(dependency) ? 'service_completed_successfully' : 'service_healthy' });
      }
    }
    expect(service('migrate').command).toEqual(['migrate']);
    expect(service('migrate').depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
  });

  it('0017: SeaweedFS serves S3 with the keys the apps use, answers its health check, and every app waits for it', () => {
    const store = service('seaweedfs');
    expect(store.command?.slice(0, 2)).toEqual(['mini', '-dir=/data']);
    // Bound to every address, so the health check on 127.0.0.1 reaches the S3 gateway.
    expect(store.command).toContain('-ip.bind=0.0.0.0');
    expect(store.healthcheck?.test).toEqual(['CMD', 'wget', '-q', '-O', '/dev/null', 'http://127.0.0.1:8333/healthz']);
    expect(store.ports).toEqual(['127.0.0.1:8333:8333/tcp']);
    const apps = [...SERVING_APPS.map((a) => a.app), 'admin'];
    for (const name of apps) {
      const env = service(name).environment ?? {};
      expect({ name, endpoint: env.S3_ENDPOINT }).toEqual({ name, endpoint: 'http://seaweedfs:8333' });
      expect({ name, keys: [env.S3_ACCESS_KEY, env.S3_SECRET_KEY] }).toEqual({
        name,
        keys: [store.environment?.AWS_ACCESS_KEY_ID, store.environment?.AWS_SECRET_ACCESS_KEY],
      });
      expect({ name, waitsFor: service(name).depends_on?.seaweedfs }).toEqual({ name, waitsFor: { condition: 'service_healthy' } });
    }
    // No one-shot bucket task: each app creates S3_BUCKET at start when it is missing (libs/storage ensureBucket).
    expect(new Set(apps.map((name) => service(name).environment?.S3_BUCKET))).toEqual(new Set(['documents']));
  });

  it.each(SERVING_APPS)('4.17, issue 36 item 3: $app\'s health check is its image\'s exec-form check, on the variable the app listens on', ({ app: name, portSetting }) => {
    const s = service(name);
    expect(declaredSetting(portSetting).parse(s.environment?.[portSetting])).toBeGreaterThan(0);
    const test = s.healthcheck?.test ?? [];
    expect(test).toEqual(['CMD', 'node', 'dist/libs/platform/src/meta/health-check.main.js', portSetting]);
    // podman 4.3 splits health-check arguments at spaces: none may hold one
    expect(test.filter((arg) => /\s/.test(arg))).toEqual([]);
    // the same command as the image's HEALTHCHECK
    const runtime = parseDockerfile(readFileSync(path.join(REPO_ROOT, `deploy/docker/${name}.Dockerfile`), 'utf8')).stages.at(-1);
    const healthcheck = runtime?.instructions.find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
    expect(execForm(healthcheck.replace(/^(--\S+\s+)*CMD\s+/, ''))).toEqual(test.slice(1));
  });

  it('the apps start after the migrations ran, and do not migrate themselves', () => {
    for (const { app: name } of SERVING_APPS) {
      const s = service(name);
      expect(s.environment?.DB_RUN_MIGRATIONS).toBe('false');
      if (name !== 'render-service') expect(s.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
  });

  it('`--scale render-service=4` works: no fixed container name anywhere, no host port on the render service', () => {
    for (const [name, s] of Object.entries(compose.services)) expect({ name, containerName: s.container_name }).toEqual({ name, containerName: undefined });
    expect(service('render-service').ports).toBeUndefined();
  });

  it('8: a stop waits longer than a render (60 s budget) and the render service\'s own shutdown bound', () => {
    const budgetSeconds = renderBudgetSettings.renderBudgetMs.parse(undefined) / 1000;
    expect(budgetSeconds).toBe(60);
    for (const { app: name } of SERVING_APPS) expect(secondsOf(service(name).stop_grace_period)).toBeGreaterThan(budgetSeconds);
    const renderEnv = service('render-service').environment ?? {};
    const shutdownGraceMs = renderSettings.shutdownGraceMs.parse(renderEnv.RENDER_SHUTDOWN_GRACE_MS);
    expect(shutdownGraceMs).toBeGreaterThan(budgetSeconds * 1000);
    // apps/render-service/src/render-service.bootstrap.ts exits at most 20 s after the shutdown grace.
    expect(secondsOf(service('render-service').stop_grace_period) * 1000).toBeGreaterThan(shutdownGraceMs + 20_000);
  });

  it('issue 31 and issue 32 item 3: the render service runs a compile thread per CPU it may use, and its memory limit holds Chromium printing the longest document it accepts and every thread at its heap', () => {
    const s = service('render-service');
    const threads = renderSettings.compileThreads.parse(s.environment?.RENDER_COMPILE_THREADS);
    expect(s.environment?.RENDER_COMPILE_THREADS).toBeDefined();
    expect(threads).toBe(quantity(s.cpus, 'cpu'));
    expect(s.environment?.RENDER_MAX_PRINTED_HTML_MB).toBeDefined();
    const needed = renderServiceMemoryMib({
      compileThreads: threads,
      compileHeapMb: renderSettings.compileHeapMb.parse(s.environment?.RENDER_COMPILE_HEAP_MB),
      maxPrintedHtmlMb: renderSettings.maxPrintedHtmlMb.parse(s.environment?.RENDER_MAX_PRINTED_HTML_MB),
    });
    // compose writes bytes as 8g
    expect(quantity(s.mem_limit?.replace(/^(\d+)([kmg])b?$/i, (_, n: string, u: string) => `${n}${u.toUpperCase()}i`), 'MiB')).toBeGreaterThanOrEqual(needed);
  });

  it('the apps run on a read-only root file system with a tmpfs /tmp, like in Kubernetes', () => {
    for (const { app: name } of SERVING_APPS) {
      expect({ name, readOnly: service(name).read_only, tmpfs: service(name).tmpfs }).toEqual({ name, readOnly: true, tmpfs: ['/tmp'] });
    }
  });

  it('every variable an app service gets is a declared setting with a value the app accepts', () => {
    for (const name of [...SERVING_APPS.map((a) => a.app), 'migrate', 'admin']) {
      const env = new Map(Object.entries(service(name).environment ?? {}));
      expect({ name, problems: environmentProblems(env) }).toEqual({ name, problems: [] });
      expect(env.get('DATABASE_URL') ?? '').toMatch(/@postgres:5432\//);
    }
    for (const { app: name } of SERVING_APPS) {
      const env = service(name).environment ?? {};
      expect(new URL(env.AMQP_URL).hostname).toBe('rabbitmq');
      expect(new URL(env.S3_ENDPOINT).hostname).toBe('seaweedfs');
    }
    const render = service('render-service').environment ?? {};
    // Explicit: inside a container the defaults would count the host's cores, not the container's share.
    expect(render[renderSettings.browsers.env]).toBeDefined();
    expect(render[renderSettings.pagesPerBrowser.env]).toBeDefined();
  });

  it('PostgreSQL, RabbitMQ and SeaweedFS keep their data in named volumes', () => {
    expect(Object.keys(compose.volumes ?? {}).sort()).toEqual(['postgres-data', 'rabbitmq-data', 'seaweedfs-data']);
    expect(service('postgres').volumes).toEqual(['postgres-data:/var/lib/postgresql/data:rw']);
    expect(service('rabbitmq').volumes).toEqual(['rabbitmq-data:/var/lib/rabbitmq:rw']);
    expect(service('seaweedfs').volumes).toEqual(['seaweedfs-data:/data:rw']);
  });
});

describe('the stand-ins override of npm run images:smoke (tools/images/stand-ins/docker-compose.stand-ins.yml)', () => {
  let compose: ComposeFile;
  let base: ComposeFile;
  beforeAll(() => {
    base = composeConfig();
    compose = composeConfig(['docker-compose.yml', 'tools/images/stand-ins/docker-compose.stand-ins.yml']);
  });
  const env = (name: string): Record<string, string> => compose.services[name]?.environment ?? {};

  it('adds no service, puts every one on the host network and replaces the three public images by stand-ins', () => {
    expect(Object.keys(compose.services).sort()).toEqual(Object.keys(base.services).sort());
    for (const [name, s] of Object.entries(compose.services)) expect({ name, network: s.network_mode }).toEqual({ name, network: 'host' });
    expect(['postgres', 'rabbitmq', 'seaweedfs'].map((name) => compose.services[name]?.image)).toEqual([
      'docrender-stand-in/postgres:local',
      'docrender-stand-in/rabbitmq:local',
      'docrender-stand-in/s3:local',
    ]);
  });

  it('gives every listener a port of its own in 43201–43225 and points every app at the stand-ins on 127.0.0.1', () => {
    const listeners = [
      env('postgres').PGPORT,
      env('rabbitmq').RABBITMQ_NODE_PORT,
      env('rabbitmq').ERL_EPMD_PORT,
      env('rabbitmq').RABBITMQ_DIST_PORT,
      env('seaweedfs').S3_PORT,
      ...SERVING_APPS.map(({ app, portSetting }) => env(app)[portSetting]),
    ].map(Number);
    expect(new Set(listeners).size).toBe(listeners.length);
    for (const port of listeners) expect(port >= 43201 && port <= 43225).toBe(true);

    for (const name of [...SERVING_APPS.map((a) => a.app), 'migrate', 'admin']) {
      const database = new URL(env(name).DATABASE_URL);
      expect({ name, database: database.host }).toEqual({ name, database: `127.0.0.1:${env('postgres').PGPORT}` });
      if (name === 'migrate') continue;
      expect({ name, amqp: new URL(env(name).AMQP_URL).host }).toEqual({ name, amqp: `127.0.0.1:${env('rabbitmq').RABBITMQ_NODE_PORT}` });
      expect({ name, s3: env(name).S3_ENDPOINT }).toEqual({ name, s3: `http://127.0.0.1:${env('seaweedfs').S3_PORT}` });
    }
    expect(env('api-gateway').PUBLIC_BASE_URL).toBe(`http://127.0.0.1:${env('api-gateway').PORT}`);
  });
});
