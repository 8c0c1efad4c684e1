// postgres.js fragments the core-api repositories share, so no column list is built as a string
// (sql.unsafe stays out of feature code).
import type { Fragment, Sql, TransactionSql } from 'postgres';

/** The pool or a transaction: every repository method runs in either. */
export type SqlOrTx = Sql | TransactionSql;

/**
 * The column (e.g. 's.created_at') as ISO 8601 UTC text. Timestamps leave PostgreSQL as text: the shared
 * client hands timestamps over unparsed (drizzle's driver setup), and zone-less columns hold UTC wall time
 * (libs/db _columns).
 */
export const isoUtc = (sql: SqlOrTx, column: string): Fragment => sql`to_char(${sql(column)}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
