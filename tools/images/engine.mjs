// The container engine the image scripts drive: podman where it is installed (with tools/images/containers.conf
// unless CONTAINERS_CONF is set), else docker. Every build and container runs at the lowest CPU and I/O priority, so the
// scripts can run beside other work on a shared machine.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const APPS = ['api-gateway', 'render-service', 'job-worker', 'webhook-dispatcher', 'workspace', 'admin-cli'];

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** podman or docker, whichever is here (IMAGES_ENGINE chooses when both are). */
export function engine() {
  const chosen = process.env.IMAGES_ENGINE ?? (onPath('podman') ? 'podman' : onPath('docker') ? 'docker' : undefined);
  if (chosen === undefined) throw new Error('neither podman nor docker is installed (apt-get install -y podman)');
  if (chosen === 'podman' && process.env.CONTAINERS_CONF === undefined) process.env.CONTAINERS_CONF = path.join(ROOT, 'tools/images/containers.conf');
  if (chosen === 'docker') process.env.DOCKER_BUILDKIT = '1';
  return chosen;
}

/** The command line that runs `args` of the engine at low priority (nice 19, and idle I/O class where ionice exists). */
export function lowPriority(command, args) {
  const prefix = ['nice', '-n', '19', ...(onPath('ionice') ? ['ionice', '-c3'] : [])];
  return [prefix[0], [...prefix.slice(1), command, ...args]];
}

/** Runs the engine with output shown; resolves with the exit code. */
export function run(command, args, options = {}) {
  const [cmd, argv] = lowPriority(command, args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: options.quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit', cwd: ROOT });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Runs the engine and returns its standard output (throws on failure). */
export function output(command, args) {
  return execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export const imageExists = (command, image) => spawnSync(command, ['image', 'inspect', image], { stdio: 'ignore' }).status === 0;

/**
 * Files npm inside a build needs to reach the registry where the machine reaches it only through its own CA bundle
 * and npm configuration: mounted for the RUN steps (podman), never copied into an image.
 */
export function npmMounts() {
  const mounts = [];
  for (const [host, inContainer] of [
    ['/etc/ssl/certs/ca-certificates.crt', '/etc/ssl/certs/ca-certificates.crt'],
    [path.join(process.env.HOME ?? '/root', '.npmrc'), '/root/.npmrc'],
    ['/etc/npmrc', '/usr/local/etc/npmrc'],
  ]) {
    if (existsSync(host)) mounts.push('-v', `${host}:${inContainer}:ro`);
  }
  return mounts;
}
