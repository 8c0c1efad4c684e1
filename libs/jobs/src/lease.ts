// Claim and lease, once, for every table whose rows are work: the runner's `jobs` and queues that keep
// their own rows (email_send_queue). A claim is one UPDATE over an inner SELECT ... FOR UPDATE SKIP LOCKED:
// concurrent workers pass over each other's rows instead of waiting, and PostgreSQL re-checks the inner
// WHERE on the latest row version after locking, so a row another worker has just claimed is never taken
// twice. The claim holds no transaction open while the work runs: the lease (locked_by, lease_expires_at)
// stands in for the lock, the worker extends it while it works, and a row whose lease has passed is
// claimable again.
import type { PendingQuery, Row, Sql } from 'postgres';

export interface LeaseTable {
  /** Table name (an identifier, never user input). */
  table: string;
  /** The status value a claimed row holds while leased. */
  runningStatus: string;
}

export interface ClaimOptions extends LeaseTable {
  workerId: string;
  leaseSeconds: number;
  limit: number;
  /** Which rows may be claimed (e.g. due and queued, or running with a passed lease). */
  claimable: PendingQuery<Row[]>;
  /** Oldest first, by this column. */
  orderBy: string;
  /** Extra assignments of the claim (e.g. `attempts = attempts + 1`), or none. */
  alsoSet?: PendingQuery<Row[]>;
  /** The columns the claim returns. */
  returning: PendingQuery<Row[]>;
}

/** Claim up to `limit` rows for `workerId`, leased for `leaseSeconds`. */
export function claimRows<T extends readonly object[]>(sql: Sql, o: ClaimOptions): Promise<T> {
  return sql<T>`
    update ${sql(o.table)}
       set status = ${o.runningStatus}, locked_by = ${o.workerId}, locked_at = now(),
           lease_expires_at = now() + make_interval(secs => ${o.leaseSeconds}), updated_at = now()
           ${o.alsoSet ? sql`, ${o.alsoSet}` : sql``}
     where id in (select id from ${sql(o.table)} where ${o.claimable} order by ${sql(o.orderBy)} limit ${o.limit} for update skip locked)
    returning ${o.returning}` as unknown as Promise<T>;
}

/**
 * Push a held row's lease out (and apply `alsoSet`, e.g. progress); false when this worker no longer holds
 * it (its lease passed and another worker took it over), so the caller stops without writing a result.
 */
export async function extendLease(sql: Sql, o: LeaseTable & { id: string; workerId: string; leaseSeconds: number; alsoSet?: PendingQuery<Row[]> }): Promise<boolean> {
  const rows = await sql`
    update ${sql(o.table)} set lease_expires_at = now() + make_interval(secs => ${o.leaseSeconds}), updated_at = now()
           ${o.alsoSet ? sql`, ${o.alsoSet}` : sql``}
     where id = ${o.id} and locked_by = ${o.workerId} and status = ${o.runningStatus}
    returning id`;
  return rows.length === 1;
}
