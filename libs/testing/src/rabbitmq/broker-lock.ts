import { Client } from 'pg';
import { TEST_POSTGRES_URL } from '../postgres/test-database';

/**
 * A readers–writer lock over the machine's one RabbitMQ broker, shared by every jest worker through a PostgreSQL
 * advisory lock: test files that use the broker hold it shared (createRabbitVhost takes it), the few that restart
 * the broker hold it exclusively, so a restart never cuts another test file's connections mid-test.
 * One session per test file (jest gives each file its own module registry); PostgreSQL does not make a session wait
 * for a lock it already holds in another mode, so a file holding the exclusive lock can still create vhosts.
 */
const BROKER_LOCK_KEY = 7_441_902_114;

let session: Promise<Client> | undefined;
let holders = 0;
let exclusive = false;

function connect(): Promise<Client> {
  session ??= (async () => {
    const client = new Client({ connectionString: TEST_POSTGRES_URL, application_name: 'docrender-test-broker-lock' });
    await client.connect();
    return client;
  })();
  return session;
}

async function release(): Promise<void> {
  holders--;
  if (holders > 0 || !session) return;
  const client = await session;
  session = undefined;
  exclusive = false;
  await client.end();
}

/** Holds the broker for ordinary use until the returned function is called (waits while a restart test runs). */
export async function useBrokerShared(): Promise<() => Promise<void>> {
  const client = await connect();
  holders++;
  if (!exclusive) await client.query('SELECT pg_advisory_lock_shared($1)', [BROKER_LOCK_KEY]);
  return release;
}

/**
 * Holds the broker alone (waits until no other test file uses it) until the returned function is called.
 * Take it in beforeAll, before createRabbitVhost, in every test file that stops or restarts RabbitMQ.
 */
export async function useBrokerExclusively(): Promise<() => Promise<void>> {
  const client = await connect();
  holders++;
  await client.query('SELECT pg_advisory_lock($1)', [BROKER_LOCK_KEY]);
  exclusive = true;
  return release;
}

export function holdsBrokerExclusively(): boolean {
  return exclusive;
}
