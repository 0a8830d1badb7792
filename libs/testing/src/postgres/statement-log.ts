import { Client } from 'pg';

/** One SQL statement a pg client sent, its parameters, and its connection (a transaction's statements share one). */
export type LoggedStatement = { connection: number; text: string; values: readonly unknown[] };

/**
 * Records every statement the pg clients of this process send while it is on (issue 23: statements and commits per
 * document). It wraps `Client.prototype.query`, so it sees every pool and TypeORM data source alike; stop() puts the
 * original back.
 */
export function logSqlStatements(): { statements: LoggedStatement[]; stop(): void } {
  const statements: LoggedStatement[] = [];
  const connections = new WeakMap<Client, number>();
  let nextConnection = 0;
  const original = Client.prototype.query;
  function logged(this: Client, ...args: unknown[]): unknown {
    const [query, parameters] = args;
    const text = typeof query === 'string' ? query : typeof query === 'object' && query !== null && 'text' in query ? String(query.text) : '';
    const given = Array.isArray(parameters) ? parameters : typeof query === 'object' && query !== null && 'values' in query ? query.values : [];
    const values: readonly unknown[] = Array.isArray(given) ? given : [];
    let connection = connections.get(this);
    if (connection === undefined) connections.set(this, (connection = nextConnection++));
    statements.push({ connection, text: text.trim(), values });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  }
  Client.prototype.query = logged as typeof Client.prototype.query;
  return { statements, stop: () => void (Client.prototype.query = original) };
}

/** Statements grouped by transaction (BEGIN/START TRANSACTION to COMMIT/ROLLBACK on one connection); a statement outside one is a transaction of its own. */
export function transactionsOf(statements: readonly LoggedStatement[]): LoggedStatement[][] {
  const open = new Map<number, LoggedStatement[]>();
  const done: LoggedStatement[][] = [];
  for (const statement of statements) {
    const keyword = statement.text.split(/\s+/, 1)[0].toUpperCase();
    const current = open.get(statement.connection);
    if (keyword === 'BEGIN' || keyword === 'START') {
      open.set(statement.connection, [statement]);
    } else if (current !== undefined) {
      current.push(statement);
      if (keyword === 'COMMIT' || keyword === 'ROLLBACK') {
        done.push(current);
        open.delete(statement.connection);
      }
    } else {
      done.push([statement]);
    }
  }
  return [...done, ...open.values()];
}
