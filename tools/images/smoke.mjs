// npm run images:smoke — the compose stack (docker-compose.yml) on the built images (npm run images): PostgreSQL,
// RabbitMQ and the S3 store as stand-ins built from Debian's and npm's packages (tools/images/stand-ins), the migrate
// task, the gateway, two render services, the job worker, the webhook dispatcher and the workspace, brought up by
// docker-compose with its depends_on conditions. It provisions an organisation, a production key and the invoice
// template with the admin service (`docker-compose run --rm admin …`), renders one document, a batch and an async job
// whose callbacks a receiver here verifies with the organisation's secret; kills the first render service with
// SIGKILL while a batch is in flight, and checks every document of the batch still arrives; stops the
// stack (`docker-compose stop`: SIGTERM, each app exits 0) and removes it with its volumes (`docker-compose down -v`).
// Prints what it saw and exits non-zero on the first failure.
//
// With podman: docker-compose (v1, or docker compose v2 where installed) talks to `podman system service` on a private
// socket, started here and stopped at the end; podman runs health checks on its own only under systemd, so this
// script runs `podman healthcheck run` on a timer for every container of the stack, which is what lets the
// depends_on conditions (service_healthy) be met. Every service uses the host's network (tools/images/
// containers.conf), so the resolved configuration loses its `ports` (docker-compose refuses them with host
// networking), the stand-ins' override (docker-compose.stand-ins.yml) gives each service a port of 43201–43225, and
// the second render service is a copy of the service on a port of its own (with one port per service on the host,
// `--scale render-service=2` would start two on the same port).
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { engine, imageExists, lowPriority, npmMounts, ROOT } from './engine.mjs';

const require = createRequire(import.meta.url);
const { parse: parseYaml } = require('yaml');
// The callback receiver of the integration tests (libs/testing), compiled by tools/build.mjs (the npm script builds first).
const { startCallbackReceiver, waitFor } = require(path.join(ROOT, 'dist/libs/testing/src/index.js'));

const cli = engine();
const STAND_INS = path.join(ROOT, 'tools/images/stand-ins');
const PROJECT = `docrender-smoke-${process.pid}`;
/** The ports docker-compose.stand-ins.yml gives the services (host networking). */
const PORTS = { postgres: 43201, rabbitmq: 43202, epmd: 43203, s3: 43210, gateway: 43220, render: 43221, secondRender: 43222, jobWorker: 43223, webhooks: 43224, workspace: 43225 };
const NODE_VERSION = readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim();
const log = (line) => console.log(`[images:smoke] ${line}`);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

function check(condition, what) {
  if (!condition) throw new Error(what);
  log(`ok: ${what}`);
}

/** Runs a command without blocking this process (the callback receiver lives here); resolves with code and output. */
function runAsync(command, args, env = process.env) {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: stdout.trim(), stderr: stderr.trim() }));
  });
}

const portFree = (port) => new Promise((resolve) => {
  const server = createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
});

/** The first of `candidates` in the image store, else null. */
const firstImage = (candidates) => candidates.find((image) => imageExists(cli, image)) ?? null;

/** Builds the stand-ins that are missing, on the Debian and Node.js images npm run images used. */
async function buildStandIns() {
  const debian = firstImage(['docker.io/library/debian:bookworm-slim', 'docrender-base/debian:bookworm-slim']);
  const node = firstImage([`docker.io/library/node:${NODE_VERSION}-bookworm-slim`, `docrender-base/node:${NODE_VERSION}-bookworm-slim`]);
  for (const [name, containerfile, buildArg] of [
    ['postgres', 'postgres.Containerfile', debian && `DEBIAN_IMAGE=${debian}`],
    ['rabbitmq', 'rabbitmq.Containerfile', debian && `DEBIAN_IMAGE=${debian}`],
    ['s3', 's3.Containerfile', node && `NODE_IMAGE=${node}`],
  ]) {
    const image = `docrender-stand-in/${name}:local`;
    if (imageExists(cli, image)) continue;
    const t0 = Date.now();
    const args = ['build', ...(cli === 'podman' ? ['--format', 'docker', ...npmMounts()] : []), ...(buildArg ? ['--build-arg', buildArg] : []), '-t', image, '-f', containerfile, '.'];
    const [command, argv] = lowPriority(cli, args);
    const result = spawnSync(command, argv, { cwd: STAND_INS, stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) throw new Error(`building ${image} failed (${cli} exited ${result.status})`);
    log(`built ${image} in ${seconds(t0)}`);
  }
}

/** podman's Docker-compatible API on a private socket, for docker-compose; stopped by the returned function. */
async function startPodmanService(dir) {
  const socket = path.join(dir, 'podman.sock');
  const [command, argv] = lowPriority('podman', ['system', 'service', '--time=0', `unix://${socket}`]);
  const service = spawn(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  // Without systemd podman logs an error for every health check it cannot put on a timer: the timer is this script's.
  service.stderr.on('data', (chunk) => {
    for (const line of chunk.toString().split('\n')) if (line.trim() !== '' && !line.includes('unable to get systemd connection')) console.error(line);
  });
  const exited = new Promise((resolve) => service.once('exit', resolve));
  await waitFor('podman system service to open its socket', () => (existsSync(socket) ? true : undefined), 30_000, 100);
  return {
    dockerHost: `unix://${socket}`,
    stop: async () => {
      service.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * podman runs a container's health check only when asked (systemd timers elsewhere): every 2 s for each container of
 * the stack that is not healthy yet, every 15 s for the healthy ones. Asynchronous, so this process keeps serving.
 */
function driveHealthChecks() {
  const lastRun = new Map();
  let stopped = false;
  let timer;
  const tick = async () => {
    const { stdout } = await runAsync('podman', ['ps', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--format', '{{.Names}} {{.Status}}']);
    const due = stdout.split('\n').filter((l) => l.includes('(')).map((l) => {
      const [name] = l.split(' ');
      return { name, healthy: l.includes('(healthy)') };
    }).filter(({ name, healthy }) => Date.now() - (lastRun.get(name) ?? 0) >= (healthy ? 15_000 : 2_000));
    await Promise.all(due.map(async ({ name }) => {
      lastRun.set(name, Date.now());
      await runAsync('podman', ['healthcheck', 'run', name]);
    }));
    if (!stopped) timer = setTimeout(tick, 1_000);
  };
  timer = setTimeout(tick, 0);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** docker compose v2 where the docker CLI has it, else docker-compose v1. */
function composeCommand() {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) return ['docker', ['compose']];
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) return ['docker-compose', []];
  throw new Error('neither docker compose nor docker-compose is installed (apt-get install -y docker-compose)');
}

/** A gauge or counter of an app's /metrics (sum over its labels). */
async function metric(port, name) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return text.split('\n').filter((l) => l.startsWith(name)).reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

async function main() {
  for (const app of ['api-gateway', 'render-service', 'job-worker', 'webhook-dispatcher', 'workspace', 'admin-cli']) {
    if (!imageExists(cli, `docrender/${app}:local`)) throw new Error(`no image docrender/${app}:local: run npm run images first`);
  }
  for (const [what, port] of Object.entries(PORTS)) if (!(await portFree(port))) throw new Error(`port ${port} (${what}) is taken: the stand-ins' override needs 43201–43225`);
  log(`engine ${cli}; load average ${load()}`);
  await buildStandIns();

  const dir = mkdtempSync(path.join(tmpdir(), 'docrender-images-smoke-'));
  const cleanups = [() => rmSync(dir, { recursive: true, force: true })];
  const env = { ...process.env, COMPOSE_PROJECT_NAME: PROJECT, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER' };
  try {
    if (cli === 'podman') {
      const service = await startPodmanService(dir);
      cleanups.unshift(service.stop);
      env.DOCKER_HOST = service.dockerHost;
      cleanups.unshift(driveHealthChecks());
    }
    const [composeCli, composePrefix] = composeCommand();
    const compose = (...args) => runAsync(composeCli, [...composePrefix, '--project-directory', ROOT, '-f', path.join(dir, 'compose.json'), ...args], env);
    const must = async (what, ...args) => {
      const result = await compose(...args);
      if (result.code !== 0) throw new Error(`${what}: ${composeCli} ${args.join(' ')} exited ${result.code}\n${result.stderr.slice(-3000)}`);
      return result.stdout;
    };

    // docker-compose.yml with the stand-ins, as compose resolves it, without the published ports (host networking).
    const resolved = await runAsync(composeCli, [...composePrefix, '-f', path.join(ROOT, 'docker-compose.yml'), '-f', path.join(STAND_INS, 'docker-compose.stand-ins.yml'), 'config'], env);
    if (resolved.code !== 0) throw new Error(`${composeCli} config: ${resolved.stderr}`);
    const config = parseYaml(resolved.stdout);
    for (const service of Object.values(config.services)) delete service.ports;
    // A second replica of the render service: `--scale render-service=2` would give both the one port of the host.
    const replica = structuredClone(config.services['render-service']);
    replica.environment.RENDER_SERVICE_PORT = String(PORTS.secondRender);
    config.services['render-service-2'] = replica;
    writeFileSync(path.join(dir, 'compose.json'), JSON.stringify(config, null, 2));
    let isDown = false;
    const down = async () => {
      if (isDown) return;
      isDown = true;
      const result = await compose('down', '--volumes', '--remove-orphans', '--timeout', '100');
      if (result.code !== 0) throw new Error(`${composeCli} down: ${result.stderr}`);
    };
    cleanups.unshift(() => down().catch((error) => console.error(`[images:smoke] ${error.message}`)));

    const t0 = Date.now();
    await must('bringing the stack up', 'up', '-d', '--no-build');
    const services = (await must('listing the stack', 'ps', '--services')).split('\n').filter((s) => s !== '');
    log(`stack up in ${seconds(t0)} (services ${services.join(', ')}); load average ${load()}`);

    /** The stack's containers with the service each runs (by compose's labels, the same for compose v1 and v2). */
    const stackContainers = async () => {
      const names = (await runAsync(cli, ['ps', '-a', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--format', '{{.Names}}'])).stdout.split('\n').filter((n) => n !== '');
      return Promise.all(names.map(async (name) => ({ name, service: (await runAsync(cli, ['inspect', '--format', '{{index .Config.Labels "com.docker.compose.service"}}', name])).stdout })));
    };
    const inspect = async (name, format) => (await runAsync(cli, ['inspect', '--format', format, name])).stdout;
    const containers = await stackContainers();
    for (const { name } of containers.filter((c) => c.service !== 'migrate')) {
      const status = await waitFor(`the health check of ${name}`, async () => ((await inspect(name, '{{.State.Health.Status}}')) === 'healthy' ? 'healthy' : undefined), 180_000, 500);
      check(status === 'healthy', `${name}: its health check passes`);
    }
    const migrate = containers.find((c) => c.service === 'migrate').name;
    const migrateExit = await inspect(migrate, '{{.State.ExitCode}}');
    check(migrateExit === '0', `${migrate}: the migrations ran and it exited ${migrateExit}`);
    const renderLogs = await must('the render service\'s log', 'logs', '--no-color', 'render-service');
    const versionLine = /"(?:msg|message)":"(Chromium version check[^"]*)"/.exec(renderLogs)?.[1];
    check(versionLine !== undefined, `the render service checked its Chromium at start: ${versionLine}`);

    const admin = async (...args) => JSON.parse(await must(`admin ${args[0]}`, 'run', '--rm', '-T', 'admin', ...args));
    const t1 = Date.now();
    const org = await admin('create-org', '--name', 'Images Smoke', '--tier', 'pro', '--included-pages', '100000');
    const key = (await admin('create-key', '--org', org.organisation.id, '--env', 'production')).key;
    const project = (await admin('create-project', '--org', org.organisation.id, '--name', 'Smoke')).id;
    const template = (await admin('import-template', '--org', org.organisation.id, '--project', project, '--name', 'Invoice',
      '--dsl', '/examples/invoice/template.json', '--sample-data', '/examples/invoice/data.json', '--publish')).templateId;
    check(typeof key === 'string' && typeof template === 'string', `provisioned with the admin service in ${seconds(t1)}: organisation ${org.organisation.id}, a production key, template ${template}`);

    const invoice = JSON.parse(readFileSync(path.join(ROOT, 'examples/invoice/request.json'), 'utf8'));
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const gateway = `http://127.0.0.1:${PORTS.gateway}`;
    const renderUrl = `${gateway}/v1/render/${template}`;
    const single = await fetch(renderUrl, { method: 'POST', headers: { ...headers, Accept: 'application/pdf' }, body: JSON.stringify({ documents: [invoice.documents[0]] }) });
    const pdf = Buffer.from(await single.arrayBuffer());
    check(single.status === 200 && pdf.subarray(0, 5).toString() === '%PDF-', `one document: ${single.status}, a PDF of ${pdf.length} bytes`);

    const documents = (n, prefix) => Array.from({ length: n }, (_, i) => ({ ...invoice.documents[0], number: `${prefix}-${String(i + 1).padStart(3, '0')}` }));
    const batch = async (n, prefix) => {
      const res = await fetch(renderUrl, { method: 'POST', headers, body: JSON.stringify({ documents: documents(n, prefix) }) });
      const text = await res.text();
      const envelope = JSON.parse(text);
      // Every document of the batch is in the envelope once, under its own documentIndex, with a stored file's id.
      const rendered = new Set((envelope.documents ?? []).filter((d) => typeof d.id === 'string').map((d) => d.documentIndex));
      return { status: res.status, ok: envelope.status === 'ok' ? rendered.size : 0, text: text.slice(0, 400) };
    };
    const first = await batch(6, 'SMOKE-BATCH');
    check(first.status === 200 && first.ok === 6, `a batch of 6: ${first.status}, ${first.ok} documents rendered ${first.ok === 6 ? '' : first.text}`);

    const receiver = await startCallbackReceiver([org.webhookSecret]);
    cleanups.unshift(() => receiver.close());
    const enqueued = await fetch(`${renderUrl}/async`, { method: 'POST', headers, body: JSON.stringify({ documents: documents(4, 'SMOKE-JOB'), callbackUrl: `${receiver.url}/hooks/smoke` }) });
    const job = await enqueued.json();
    check(enqueued.status === 202, `an async job of 4 enqueued: ${enqueued.status}, job ${job.jobId}`);
    const completion = await waitFor('the completion callback', () => receiver.received.find((c) => c.signatureFailure === null && c.event !== 'render.progress'), 300_000, 200);
    const unverified = receiver.received.filter((c) => c.signatureFailure !== null);
    check(completion.event === 'render.completed' && unverified.length === 0, `the async job: ${completion.event}, ${receiver.received.length} callback(s), every one verified with the organisation's secret (${unverified.length} failed)`);

    // A batch in flight while the first render service dies: the documents it held are redelivered to the second.
    const victim = containers.find((c) => c.service === 'render-service').name;
    const inFlight = batch(12, 'SMOKE-KILL');
    await waitFor('the first render service to be printing', async () => ((await metric(PORTS.render, 'docrender_render_pages_busy')) > 0 ? true : undefined), 120_000, 20);
    const killed = await runAsync(cli, ['kill', '--signal', 'KILL', victim]);
    if (killed.code !== 0) throw new Error(`${cli} kill ${victim}: ${killed.stderr}`);
    log(`killed ${victim} with SIGKILL while it printed a document of a batch of 12`);
    const survived = await inFlight;
    check(survived.status === 200 && survived.ok === 12, `the batch of 12 after the kill: ${survived.status}, ${survived.ok} documents rendered ${survived.ok === 12 ? '' : survived.text}`);
    // restart: unless-stopped — the engine may have started the killed container again; then it stops like the rest.
    const victimState = await inspect(victim, '{{.State.Status}}');
    log(`${victim} after the kill: ${victimState}`);

    const t2 = Date.now();
    await must('stopping the stack', 'stop');
    for (const { name, service } of await stackContainers()) {
      if ((name === victim && victimState !== 'running') || service === 'migrate') continue;
      const exit = await inspect(name, '{{.State.ExitCode}}');
      check(exit === '0', `${name}: exits ${exit} on SIGTERM`);
    }
    log(`stack stopped in ${seconds(t2)}`);
    await down();
    const left = await stackContainers();
    const volumes = (await runAsync(cli, ['volume', 'ls', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--format', '{{.Name}}'])).stdout;
    check(left.length === 0 && volumes === '', `${composeCli} down --volumes left no container and no volume`);
    log(`done in ${seconds(t0)}; load average ${load()}`);
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

main().catch((error) => {
  console.error(`[images:smoke] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
