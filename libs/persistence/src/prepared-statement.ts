import type { Pool, PoolClient } from 'pg';
import type { EntityManager, QueryResult } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** A statement run so often (every request, every callback) that each connection should parse and plan it only once. */
export type PreparedStatement = { name: string; text: string };

/**
 * Runs `statement` as a protocol-level named prepared statement on the pool and returns its rows: each pooled
 * connection parses and plans it once, not once per run, and TypeORM's query runner is skipped (measured on the
 * gateway's statements: about two thirds of the client's CPU per statement, and of PostgreSQL's up to seven eighths).
 * Inside a transaction (a manager with its own query runner) it runs there as a plain statement; on a query runner's
 * connection outside a transaction, as the named statement on that connection. A connection pooler
 * in transaction mode must track prepared statements (docs/operations.md).
 */
export async function queryPrepared<T>(manager: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const runner = manager.queryRunner;
  if (runner !== undefined && !runner.isTransactionActive) {
    // A connection of its own outside a transaction (RenderedDocumentLedger): the named statement on it.
    const client = (await runner.connect()) as PoolClient;
    return (await client.query({ name: statement.name, text: statement.text, values })).rows as T[];
  }
  if (runner !== undefined) return ((await runner.query(statement.text, values, true)) as QueryResult).records as T[];
  const pool = (manager.connection.driver as PostgresDriver).master as Pool;
  return (await pool.query({ name: statement.name, text: statement.text, values })).rows as T[];
}
