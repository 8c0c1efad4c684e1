// Durable background jobs shared by the three services (transcription, PDF rendering, imports, bulk
// generation, sweeps): work survives restarts because it lives here, not in process memory.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, oneOf, updatedAt } from './_columns';

/** dead: out of attempts, kept for inspection and manual retry. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'dead'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * Claim and lease. A worker claims with
 *   UPDATE jobs SET status='running', locked_by=$worker, locked_at=now(), lease_expires_at=now()+$lease,
 *          attempts=attempts+1
 *   WHERE id IN (SELECT id FROM jobs WHERE queue=$q AND status='queued' AND run_at <= now()
 *                ORDER BY run_at LIMIT $n FOR UPDATE SKIP LOCKED)
 *   RETURNING *
 * so concurrent workers skip each other's rows instead of waiting on them. The claim holds no
 * transaction open while the job runs; the lease stands in for the lock, and a long job extends it.
 * A worker that dies leaves 'running' rows whose lease has passed; a sweep puts them back to 'queued'
 * (or 'dead' once attempts reach max_attempts). So a job may run more than once: handlers are idempotent.
 * A failure with attempts left goes back to 'queued' with run_at pushed out by the backoff ('failed' is
 * a final failure the handler declared not worth retrying).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    /** Worker pool that runs it: core, email, tools. */
    queue: text('queue').notNull(),
    /** Handler name, e.g. recording.transcribe, export.render_interior. */
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    /** Not before this time: delayed jobs and retry backoff. */
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    lastError: text('last_error'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    /** What a running job reported last (e.g. {done, total}); also refreshes the lease when written. */
    progress: jsonb('progress').$type<Record<string, unknown>>(),
    /**
     * While a job with this key is queued or running, enqueueing another is a no-op
     * (INSERT ... ON CONFLICT DO NOTHING), e.g. 'transcribe:<recording id>'. Finished jobs free the key.
     */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    // The claim's inner SELECT: only queued rows, so finished history never slows it.
    index('jobs_queue_run_at_queued_idx').on(t.queue, t.runAt).where(sql`status = 'queued'`),
    // The sweep that reclaims running jobs whose lease has expired.
    index('jobs_status_lease_idx').on(t.status, t.leaseExpiresAt),
    uniqueIndex('jobs_dedupe_key_active_key').on(t.dedupeKey).where(sql`status IN ('queued', 'running')`),
    // Pruning finished jobs.
    index('jobs_completed_at_idx').on(t.completedAt),
    check('jobs_status_check', oneOf('status', JOB_STATUSES)),
    check('jobs_attempts_check', sql`attempts >= 0 AND max_attempts >= 1`),
  ],
);
