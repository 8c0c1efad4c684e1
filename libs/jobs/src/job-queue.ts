// The durable job queue over the `jobs` table (libs/db schema/jobs.ts holds the claim and lease design):
// any number of workers in any number of processes claim with FOR UPDATE SKIP LOCKED, so adding replicas
// adds throughput and never runs one job twice at the same time. Handlers must be idempotent: a job whose
// worker died runs again once its lease has passed.
// JSON goes in as text with a ::jsonb cast: the Drizzle client shares this postgres.js instance and swaps
// its json serializer for a pass-through, so sql.json() values would not be encoded.
import type { Sql, TransactionSql } from 'postgres';
import { claimRows, extendLease } from './lease';

const JOBS_TABLE = { table: 'jobs', runningStatus: 'running' } as const;

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'dead';

export interface ClaimedJob {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
}

export interface EnqueueOptions {
  /**
   * Idempotency key: while a job with this key is queued or running, enqueueing another returns that
   * job's id instead of adding one. A finished job frees its key.
   */
  dedupeKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

export interface Enqueued {
  id: string;
  /** false when an active job with the same idempotency key already existed (its id is returned). */
  created: boolean;
}

/** What happened to a job whose lease ran out: back in the queue, or out of attempts. */
export interface ReclaimedJob {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  status: 'queued' | 'dead';
}

export interface JobView {
  id: string;
  queue: string;
  kind: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  progress: Record<string, unknown> | null;
  result: Record<string, unknown> | null;
  lastError: string | null;
}

type Db = Sql | TransactionSql;

/** A recurring job's next run, written together with the end of the current one. */
export interface NextRun {
  kind: string;
  options: EnqueueOptions;
}

export interface JobQueue {
  /** Insert a job (inside the caller's transaction when given). */
  enqueue(kind: string, payload: Record<string, unknown>, options?: EnqueueOptions, tx?: Db): Promise<Enqueued>;
  /** Claim up to `limit` due jobs for `workerId`, leased for `leaseSeconds`; `kinds` narrows what is taken. */
  claim(workerId: string, limit: number, leaseSeconds: number, kinds?: readonly string[]): Promise<ClaimedJob[]>;
  /** Record progress and push the lease out (only while this worker still holds the job); false when it lost it. */
  heartbeat(jobId: string, workerId: string, leaseSeconds: number, progress?: Record<string, unknown>): Promise<boolean>;
  /**
   * Mark a claimed job done (only while this worker still holds it). `next` (a recurring job's next run) is
   * enqueued in the same transaction, so another runner never sees the job neither active nor scheduled.
   */
  complete(jobId: string, workerId: string, result?: Record<string, unknown>, next?: NextRun): Promise<void>;
  /**
   * Record a failure: back to 'queued' after a backoff while attempts remain and `retry` is true, else
   * 'failed' (not worth retrying) or 'dead' (out of attempts). Returns the job's new status.
   */
  fail(jobId: string, workerId: string, error: string, options: { retry: boolean; next?: NextRun }): Promise<'queued' | 'failed' | 'dead'>;
  /** Hand a claimed job back untouched (a stopping worker): queued again at once, the attempt not counted. */
  release(jobId: string, workerId: string): Promise<void>;
  /** The stuck-job sweep: running jobs whose lease has passed go back to the queue, or 'dead' when out of attempts. */
  reclaimExpired(): Promise<ReclaimedJob[]>;
  /** One job, for status pages and tests. */
  get(jobId: string): Promise<JobView | null>;
}

/** Exponential backoff: 5 s, 10 s, 20 s ... capped at 10 minutes (the same formula runs in SQL in fail()). */
export const backoffSeconds = (attempts: number) => Math.min(600, 5 * 2 ** Math.max(0, attempts - 1));

export function createJobQueue(sql: Sql, queue: string): JobQueue {
  return {
    async enqueue(kind, payload, options = {}, tx) {
      const db = tx ?? sql;
      // ON CONFLICT on the partial unique index: a second enqueue while one is active adds nothing.
      const rows = await db<{ id: string }[]>`
        insert into jobs (queue, kind, payload, dedupe_key, run_at, max_attempts)
        values (${queue}, ${kind}, ${JSON.stringify(payload)}::jsonb, ${options.dedupeKey ?? null},
                coalesce(${options.runAt ? options.runAt.toISOString() : null}::timestamptz, now()), ${options.maxAttempts ?? 5})
        on conflict (dedupe_key) where status in ('queued', 'running') do nothing
        returning id`;
      if (rows[0]) return { id: rows[0].id, created: true };
      const [existing] = await db<{ id: string }[]>`
        select id from jobs where dedupe_key = ${options.dedupeKey ?? null} and status in ('queued', 'running')`;
      // The holder finished between the two statements: try once more (its key is free now).
      if (!existing) return this.enqueue(kind, payload, options, tx);
      return { id: existing.id, created: false };
    },

    async claim(workerId, limit, leaseSeconds, kinds) {
      // The partial index on (queue, run_at) where status = 'queued' keeps finished history out of the scan.
      return claimRows<ClaimedJob[]>(sql, {
        ...JOBS_TABLE,
        workerId,
        leaseSeconds,
        limit,
        claimable: sql`queue = ${queue} and status = 'queued' and run_at <= now() ${kinds ? sql`and kind = any(${kinds as string[]})` : sql``}`,
        orderBy: 'run_at',
        alsoSet: sql`attempts = attempts + 1`,
        returning: sql`id, kind, payload, attempts, max_attempts as "maxAttempts"`,
      });
    },

    async heartbeat(jobId, workerId, leaseSeconds, progress) {
      return extendLease(sql, {
        ...JOBS_TABLE,
        id: jobId,
        workerId,
        leaseSeconds,
        alsoSet: sql`progress = coalesce(${progress ? JSON.stringify(progress) : null}::jsonb, progress)`,
      });
    },

    async complete(jobId, workerId, result, next) {
      await sql.begin(async (tx) => {
        const done = await tx`
          update jobs set status = 'succeeded', result = ${result ? JSON.stringify(result) : null}::jsonb, completed_at = now(),
                 locked_by = null, lease_expires_at = null, updated_at = now()
           where id = ${jobId} and locked_by = ${workerId} and status = 'running'`;
        if (next && done.count > 0) await this.enqueue(next.kind, {}, next.options, tx);
      });
    },

    async fail(jobId, workerId, error, { retry, next }) {
      return sql.begin(async (tx) => {
        const [row] = await tx<{ status: 'queued' | 'failed' | 'dead' }[]>`
          update jobs set
                 status = case when not ${retry} then 'failed' when attempts >= max_attempts then 'dead' else 'queued' end,
                 run_at = now() + make_interval(secs => least(600, 5 * power(2, greatest(attempts - 1, 0)))),
                 last_error = ${error.slice(0, 2000)},
                 completed_at = case when not ${retry} or attempts >= max_attempts then now() end,
                 locked_by = null, lease_expires_at = null, updated_at = now()
           where id = ${jobId} and locked_by = ${workerId} and status = 'running'
          returning status`;
        // Still queued for a retry: that row keeps the recurring key, so no next run is added.
        if (next && row && row.status !== 'queued') await this.enqueue(next.kind, {}, next.options, tx);
        return row?.status ?? 'failed';
      });
    },

    async release(jobId, workerId) {
      await sql`
        update jobs set status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null, lease_expires_at = null, updated_at = now()
         where id = ${jobId} and locked_by = ${workerId} and status = 'running'`;
    },

    async reclaimExpired() {
      return sql<ReclaimedJob[]>`
        update jobs set status = case when attempts >= max_attempts then 'dead' else 'queued' end,
               last_error = 'worker stopped before finishing (lease expired)',
               completed_at = case when attempts >= max_attempts then now() end,
               locked_by = null, lease_expires_at = null, updated_at = now()
         where queue = ${queue} and status = 'running' and lease_expires_at < now()
        returning id, kind, payload, status`;
    },

    async get(jobId) {
      const [row] = await sql<JobView[]>`
        select id, queue, kind, status, attempts, max_attempts as "maxAttempts", progress, result, last_error as "lastError"
          from jobs where id = ${jobId}`;
      return row ?? null;
    },
  };
}
