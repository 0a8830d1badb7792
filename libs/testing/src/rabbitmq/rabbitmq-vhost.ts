import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** The RabbitMQ every integration test talks to (the machine's broker; guest/guest only works on localhost). */
export const LOCAL_RABBITMQ = { host: '127.0.0.1', port: 5672, user: 'guest', password: 'guest' } as const;

export type RabbitVhost = {
  /** amqp:// URL selecting the vhost. */
  url: string;
  name: string;
  /** Deletes the vhost with every queue and exchange in it. */
  delete(): Promise<void>;
};

/** How long one rabbitmqctl call may take before its whole process group is killed. */
const RABBITMQCTL_TIMEOUT_MS = 60_000;

/**
 * Runs rabbitmqctl in its own process group. The script starts an Erlang VM (`beam.smp -B`) as a child: a timeout
 * that killed only the script left that VM running, holding one of the CLI's distribution ports, and once they were
 * all held every later call failed with "nodistribution". So on timeout the whole group is killed.
 */
function rabbitmqctl(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('rabbitmqctl', args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ended meanwhile
      }
    }, RABBITMQCTL_TIMEOUT_MS);
    const failed = (reason: string, cause?: Error): void => reject(new Error(`rabbitmqctl ${args.join(' ')} failed: ${stderr.trim() || reason}`, { cause }));
    child.once('error', (error) => {
      clearTimeout(timer);
      failed(error.message, error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else failed(signal ? `killed by ${signal} after ${RABBITMQCTL_TIMEOUT_MS} ms` : `exit code ${code}`);
    });
  });
}

/**
 * An isolated vhost for one test file, created with `rabbitmqctl` (the local broker runs on this machine; the
 * management plugin is not needed). The guest user gets full rights on it. Call `delete()` in afterAll.
 */
export async function createRabbitVhost(label = 'test'): Promise<RabbitVhost> {
  const name = `docrender-${label}-${randomBytes(4).toString('hex')}`;
  await rabbitmqctl('add_vhost', name);
  try {
    await rabbitmqctl('set_permissions', '-p', name, LOCAL_RABBITMQ.user, '.*', '.*', '.*');
  } catch (error) {
    await rabbitmqctl('delete_vhost', name).catch(() => undefined);
    throw error;
  }
  const { host, port, user, password } = LOCAL_RABBITMQ;
  return {
    name,
    url: `amqp://${user}:${password}@${host}:${port}/${encodeURIComponent(name)}`,
    delete: async () => {
      await rabbitmqctl('delete_vhost', name);
    },
  };
}

/**
 * Stops the RabbitMQ application (`rabbitmqctl stop_app`: every connection drops, the node and its durable queues
 * stay), runs `whileStopped`, then starts it again and waits until it serves. RabbitMQ is started again even when
 * `whileStopped` fails. Affects every user of the local broker: only for tests of reconnection, which are
 * `*.serial-spec.ts` files that jest runs after every other test, one at a time (tools/run-tests.mjs).
 */
export async function restartRabbitMq(whileStopped: () => Promise<void> = async () => undefined): Promise<void> {
  await rabbitmqctl('stop_app');
  try {
    await whileStopped();
  } finally {
    await startRabbitMq();
  }
}

async function startRabbitMq(): Promise<void> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await rabbitmqctl('start_app');
      await rabbitmqctl('await_startup');
      return;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
