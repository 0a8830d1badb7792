// npm run images:smoke — the built images (npm run images) running as a stack: the gateway, two render services, the
// job worker and the webhook dispatcher as containers (podman or docker, host networking, uid 1000, read-only root
// with a tmpfs /tmp, all capabilities dropped, no new privileges). It renders one document, a batch and an async job
// whose callbacks the receiver verifies; kills one render service with SIGKILL while a batch is in flight and checks
// that every document of the batch still arrives; runs each container's exec-form health check; stops every container
// with SIGTERM and checks it exits 0. Prints what it saw and exits non-zero on the first failure.
//
// The dependencies are those of the integration tests (libs/testing): a fresh database on the machine's PostgreSQL
// (which also holds the migrations the admin-cli image would apply), a fresh vhost on its RabbitMQ and an S3 server
// (s3rver) in this process. The containers reach them over the host's network: none of them takes a port of its own
// beyond the free ports the stack picks for the apps.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import path from 'node:path';
import { engine, lowPriority, ROOT } from './engine.mjs';

const require = createRequire(import.meta.url);
// The test stack of libs/testing, compiled by tools/build.mjs (the npm script builds first).
const { appDefaults, startAsyncStack, startWatchedProcess, waitFor } = require(path.join(ROOT, 'dist/libs/testing/src/index.js'));

const cli = engine();
const RUN_ID = `smoke-${process.pid}`;
const started = [];
const log = (line) => console.log(`[images:smoke] ${line}`);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

/** Each app in its image, as the Kubernetes manifests run it: non-root, read-only, no capabilities, /tmp writable. */
function launchContainer(app, env) {
  const name = `docrender-${RUN_ID}-${app}-${started.filter((n) => n.includes(`-${app}-`)).length + 1}`;
  started.push(name);
  const args = [
    'run', '--rm', '--name', name, '--network', 'host', '--read-only', '--tmpfs', '/tmp:rw,size=512m', '--cap-drop', 'ALL',
    '--security-opt', 'no-new-privileges', ...(app === 'render-service' ? ['--shm-size', '1g'] : []),
    ...Object.entries(appDefaults(env)).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    `docrender/${app}:local`,
  ];
  const [command, argv] = lowPriority(cli, args);
  return startWatchedProcess(name, command, argv, { ...process.env }, env);
}

/**
 * Runs the engine without blocking this process: the S3 server the containers' readiness probes ask lives in this
 * process, so a synchronous call (spawnSync) would stall it and every probe answered meanwhile would report blob
 * storage unreachable. Resolves with the exit code and the output.
 */
function engineCommand(args) {
  return new Promise((resolve) => {
    execFile(cli, args, { cwd: ROOT, encoding: 'utf8' }, (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}`.trim() }));
  });
}

/**
 * The image's exec-form HEALTHCHECK as the engine judges it (podman runs it on demand; docker on its own schedule):
 * unhealthy only after the image's 3 retries fail. Resolves with null when healthy, else with what the check said.
 */
async function healthCheckFailure(name) {
  const lastOutput = async () => {
    const { output } = await engineCommand(['inspect', '--format', '{{range .State.Health.Log}}{{.Output}}{{"\\n"}}{{end}}', name]);
    return output.split('\n').filter((l) => l.trim() !== '').pop() ?? '(no output)';
  };
  if (cli === 'podman') {
    for (let attempt = 1; attempt <= 3; attempt++) if ((await engineCommand(['healthcheck', 'run', name])).code === 0) return null;
    return lastOutput();
  }
  const status = await waitFor(`docker's first health check of ${name}`, async () => {
    const { output } = await engineCommand(['inspect', '--format', '{{.State.Health.Status}}', name]);
    return output === 'starting' ? undefined : output;
  }, 120_000, 500);
  return status === 'healthy' ? null : lastOutput();
}

function check(condition, what) {
  if (!condition) throw new Error(what);
  log(`ok: ${what}`);
}

/** A gauge or counter of an app's /metrics (sum over its labels). */
async function metric(port, name) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return text.split('\n').filter((l) => l.startsWith(name)).reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

async function main() {
  for (const app of ['api-gateway', 'render-service', 'job-worker', 'webhook-dispatcher']) {
    if (spawnSync(cli, ['image', 'inspect', `docrender/${app}:local`], { stdio: 'ignore' }).status !== 0) throw new Error(`no image docrender/${app}:local: run npm run images first`);
  }
  log(`engine ${cli}; load average ${load()}`);
  const t0 = Date.now();
  const invoice = JSON.parse(readFileSync(path.join(ROOT, 'examples/invoice/request.json'), 'utf8'));
  const stack = await startAsyncStack(
    'images-smoke',
    { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '2', RENDER_COMPILE_THREADS: '1', RENDER_SHUTDOWN_GRACE_MS: '65000', LOG_LEVEL: 'info' },
    {
      launch: launchContainer,
      renderService: {
        template: {
          templateJson: readFileSync(path.join(ROOT, 'examples/invoice/template.json'), 'utf8'),
          sampleData: JSON.stringify({ data: invoice.documents[0], i18n: {} }),
          translations: null,
        },
      },
    },
  );
  try {
    log(`stack up in ${Math.round((Date.now() - t0) / 1000)} s: ${started.join(', ')}`);
    const second = await stack.start('render-service');
    log(`second render service up; load average ${load()}`);
    for (const name of started) {
      const failure = await healthCheckFailure(name);
      check(failure === null, `${name}: the image's exec-form health check passes${failure === null ? '' : ` (it said: ${failure})`}`);
    }
    const victim = stack.processes['render-service'];
    const versionLine = /"(?:msg|message)":"(Chromium version check[^"]*)"/.exec(victim.output())?.[1];
    check(versionLine !== undefined, `the render service checked its Chromium at start: ${versionLine}`);

    const headers = { Authorization: `Bearer ${stack.prodKey}`, 'Content-Type': 'application/json' };
    const renderUrl = `${stack.gatewayUrl}/v1/render/${stack.tenant.templateId}`;
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

    const jobId = await stack.enqueue(stack.prodKey, documents(4, 'SMOKE-JOB'));
    const completion = await stack.completionOf(jobId, 300_000);
    const callbacks = stack.callbacksOf(jobId);
    // callbacksOf holds only the callbacks that verified; the receiver keeps every one it got, verified or not.
    const unverified = stack.receiver.received.filter((c) => c.signatureFailure !== null);
    check(completion.event === 'render.completed' && unverified.length === 0, `an async job of 4: ${completion.event}, ${callbacks.length} callback(s) verified, ${unverified.length} failed verification`);

    // A batch in flight while one render service dies: the documents it held are redelivered to the other one.
    const victimPort = victim.env.RENDER_SERVICE_PORT;
    const inFlight = batch(12, 'SMOKE-KILL');
    await waitFor('the first render service to be printing', async () => ((await metric(victimPort, 'docrender_render_pages_busy')) > 0 ? true : undefined), 120_000, 20);
    const killed = await engineCommand(['kill', '--signal', 'KILL', started[0]]);
    if (killed.code !== 0) throw new Error(`${cli} kill ${started[0]}: ${killed.output}`);
    log(`killed ${started[0]} with SIGKILL while it printed a document of a batch of 12`);
    const survived = await inFlight;
    check(survived.status === 200 && survived.ok === 12, `the batch of 12 after the kill: ${survived.status}, ${survived.ok} documents rendered ${survived.ok === 12 ? '' : survived.text}`);

    for (const [app, child] of [['api-gateway', stack.processes['api-gateway']], ['job-worker', stack.processes['job-worker']], ['webhook-dispatcher', stack.processes['webhook-dispatcher']], ['render-service (second)', second]]) {
      const code = await child.stop('SIGTERM', 90_000);
      check(code === 0, `${app}: exits 0 on SIGTERM (got ${String(code)})`);
    }
    log(`done in ${Math.round((Date.now() - t0) / 1000)} s; load average ${load()}`);
  } finally {
    await stack.teardown();
    for (const name of started) spawnSync(cli, ['rm', '-f', name], { stdio: 'ignore' });
  }
}

main().catch((error) => {
  console.error(`[images:smoke] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  for (const name of started) spawnSync(cli, ['rm', '-f', name], { stdio: 'ignore' });
  process.exitCode = 1;
});
