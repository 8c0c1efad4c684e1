// The one postgres.js client factory of the project. Every service and test gets its connection here.
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';

export type Schema = typeof schema;
export type Database = PostgresJsDatabase<Schema>;
/** A transaction handle, accepted wherever a repository takes an optional `tx`. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DbOrTx = Database | Transaction;

/**
 * The postgres.js transaction under a Drizzle one, for writes that take postgres.js (the job queue's
 * enqueue) and must commit with the Drizzle writes beside them: drizzle-orm/postgres-js/session.js keeps
 * that client on the transaction's session.
 */
export function postgresTransactionOf(tx: DbOrTx): postgres.TransactionSql {
  const client = (tx as unknown as { session?: { client?: postgres.TransactionSql } }).session?.client;
  if (!client || typeof (client as { savepoint?: unknown }).savepoint !== 'function') throw new Error('Not a Drizzle transaction over postgres.js');
  return client;
}

export interface DbClient {
  db: Database;
  sql: postgres.Sql;
  close(): Promise<void>;
}

export interface DbClientOptions {
  max?: number;
  applicationName?: string;
}

/** Seconds before a pool connection tries again after failed connects: 50 ms doubling, at most 1 s. */
export const reconnectBackoffSeconds = (attempt: number): number => Math.min(0.05 * 2 ** attempt, 1);

export function createDbClient(url: string, options: DbClientOptions = {}): DbClient {
  const sql = postgres(url, {
    max: options.max ?? 10,
    idle_timeout: 30,
    connect_timeout: 10,
    // postgres.js backs off 3^n/100 s (up to 20 s) after failed connects, n shared by the whole pool: a
    // short outage drives n up within a second, and a query that lands on a connection still waiting out
    // its backoff then waits up to 20 s after the server is back. Capped at 1 s, recovery is prompt.
    backoff: reconnectBackoffSeconds,
    onnotice: () => undefined,
    // Zone-less columns (recordings, stories, books) hold UTC wall time: pin the session zone.
    connection: { TimeZone: 'UTC', application_name: options.applicationName ?? 'family-stories' },
  });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

/** `select 1` with a deadline, for /health. */
export async function pingDatabase(sql: postgres.Sql, timeoutMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      sql`select 1`,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('database did not answer in time')), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
