// The one job runner every background job of the three services uses (graphile-worker and listmonk are
// the models): typed job kinds, claims with FOR UPDATE SKIP LOCKED, leases that a running job extends
// with its progress, retries with backoff, a dead state, idempotency keys, recurring jobs and a stuck-job
// sweep. A service defines its kinds with defineJob(), builds one runner per queue, and main.ts starts
// it (never a request hook), so work survives restarts and replicas share it.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Sql, TransactionSql } from 'postgres';
import { createJobQueue, type ClaimedJob, type EnqueueOptions, type Enqueued, type JobQueue, type NextRun, type ReclaimedJob } from './job-queue';

export interface JobLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What a handler gets for one run of one job. */
export interface JobContext<P> {
  id: string;
  kind: string;
  payload: P;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the runner stops or this worker lost the job's lease: stop early, nothing is recorded. */
  signal: AbortSignal;
  /** Record progress (shown on the job) and extend the lease; long handlers call it between steps. */
  progress(value: Record<string, unknown>): Promise<void>;
}

/** Thrown (or returned by `retryable`) for failures that another attempt cannot fix. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

/** What onGiveUp hears when the sweep ends a job whose workers kept dying before it finished. */
export class StuckJobError extends Error {
  override name = 'StuckJobError';
  constructor() {
    super('The job stopped repeatedly before finishing');
  }
}

export interface JobDefinition<P = Record<string, unknown>> {
  kind: string;
  /** Validate and type the stored payload (a zod schema's parse, say); a throw fails the job for good. */
  parse(payload: unknown): P;
  run(ctx: JobContext<P>): Promise<Record<string, unknown> | void>;
  maxAttempts?: number;
  /** Seconds a claim holds before another worker may take the job over (default: the runner's). */
  leaseSeconds?: number;
  /** Whether a thrown error is worth another attempt (default: anything but PermanentJobError). */
  retryable?(err: unknown): boolean;
  /** After a failed attempt that will be retried (e.g. set a row back to pending). */
  onRetry?(payload: P, error: unknown): Promise<void>;
  /**
   * Once, when the job ends without success: the error of a permanent failure or of the last attempt, or a
   * StuckJobError when its workers kept dying.
   */
  onGiveUp?(payload: P, error: unknown): Promise<void>;
  /** When the sweep puts the job back in the queue after its worker died (e.g. a row left in processing). */
  onReclaimed?(payload: P): Promise<void>;
  /** A recurring job: the runner keeps exactly one queued, the next due this many seconds after the last ended. */
  everySeconds?: number;
}

/** Type a job kind (the payload type flows from `parse`). */
export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

export interface JobRunnerOptions {
  sql: Sql;
  /** Worker pool: core, email, tools. */
  queue: string;
  /** Kinds known from the start; feature areas may add theirs with define() before start(). */
  // The payload type of each kind is checked where it is defined; the runner treats them alike.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  jobs?: readonly JobDefinition<any>[];
  log?: JobLog;
  workerId?: string;
  leaseSeconds?: number;
  /** Jobs claimed per round (run one after another). */
  batchSize?: number;
}

export interface JobRunner {
  workerId: string;
  queue: JobQueue;
  /** Add a kind (a feature area's, at build time); a kind is defined once per runner. */
  define<P>(definition: JobDefinition<P>): void;
  /** Enqueue a job of a defined kind (inside the caller's transaction when given). */
  enqueue(kind: string, payload: Record<string, unknown>, options?: EnqueueOptions, tx?: Sql | TransactionSql): Promise<Enqueued>;
  /** Sweep stuck jobs, then claim and run one batch; returns how many ran. */
  runOnce(): Promise<number>;
  /** Run rounds until the queue has nothing due (tests, scripts). */
  drain(): Promise<number>;
  /** Poll every `intervalMs`; a busy queue is drained without waiting between batches. */
  start(intervalMs?: number): void;
  /** Wake a sleeping poller at once (after an enqueue in this process). */
  wake(): void;
  /** Stop claiming, abort running handlers' signals, and wait for the current round to end. */
  stop(): Promise<void>;
}

const silent: JobLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { sql } = options;
  const queue = createJobQueue(sql, options.queue);
  const log = options.log ?? silent;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const defaultLease = options.leaseSeconds ?? 15 * 60;
  const batchSize = options.batchSize ?? 4;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const byKind = new Map<string, JobDefinition<any>>();
  const kinds: string[] = [];
  function define<P>(definition: JobDefinition<P>): void {
    if (byKind.has(definition.kind)) throw new Error(`job kind ${definition.kind} is defined twice in queue ${options.queue}`);
    byKind.set(definition.kind, definition);
    kinds.push(definition.kind);
  }
  for (const definition of options.jobs ?? []) define(definition);

  let timer: NodeJS.Timeout | undefined;
  let round: Promise<unknown> | undefined;
  let stopped = false;
  let controller = new AbortController();
  let intervalMs = 1000;
  let recurringSeeded = false;

  const recurringKey = (kind: string) => `recurring:${options.queue}:${kind}`;

  function nextRun(def: JobDefinition<unknown>, delaySeconds: number): NextRun {
    return { kind: def.kind, options: { dedupeKey: recurringKey(def.kind), runAt: new Date(Date.now() + delaySeconds * 1000), maxAttempts: def.maxAttempts ?? 3 } };
  }

  async function scheduleNext(def: JobDefinition<unknown>, delaySeconds: number): Promise<void> {
    const next = nextRun(def, delaySeconds);
    await queue.enqueue(next.kind, {}, next.options);
  }

  async function seedRecurring(): Promise<void> {
    if (recurringSeeded) return;
    for (const def of byKind.values()) if (def.everySeconds) await scheduleNext(def, 0);
    recurringSeeded = true;
  }

  async function afterReclaim(job: ReclaimedJob): Promise<void> {
    const def = byKind.get(job.kind);
    if (!def) return;
    try {
      const payload = def.parse(job.payload);
      if (job.status === 'dead') await def.onGiveUp?.(payload, new StuckJobError());
      else await def.onReclaimed?.(payload);
    } catch (err) {
      log.error({ err: errorText(err), jobId: job.id, kind: job.kind }, 'reclaim hook failed');
    }
    if (job.status === 'dead' && def.everySeconds) await scheduleNext(def, def.everySeconds);
  }

  async function runJob(job: ClaimedJob): Promise<void> {
    const def = byKind.get(job.kind);
    if (!def) {
      await queue.fail(job.id, workerId, `no handler for ${job.kind} in this worker`, { retry: false });
      return;
    }
    const lease = def.leaseSeconds ?? defaultLease;
    let payload: unknown;
    try {
      payload = def.parse(job.payload);
    } catch (err) {
      await queue.fail(job.id, workerId, `invalid payload: ${errorText(err)}`, { retry: false });
      log.error({ jobId: job.id, kind: job.kind }, 'job payload refused');
      return;
    }
    // A job claimed in a batch waits while the ones before it run: its lease is counted again from its
    // start, and one that passed meanwhile (the sweep handed the job to another worker) is not run twice.
    if (!(await queue.heartbeat(job.id, workerId, lease, undefined))) {
      log.warn({ jobId: job.id, kind: job.kind }, 'job skipped: its lease passed while it waited in the batch');
      return;
    }
    const signal = controller.signal;
    const ctx: JobContext<unknown> = {
      id: job.id,
      kind: job.kind,
      payload,
      attempt: job.attempts,
      maxAttempts: job.maxAttempts,
      signal,
      async progress(value) {
        if (!(await queue.heartbeat(job.id, workerId, lease, value))) throw new PermanentJobError('This worker no longer holds the job (its lease passed)');
      },
    };
    // A recurring job's next run is written in the same transaction as this run's end (see JobQueue.complete).
    const next = def.everySeconds ? nextRun(def, def.everySeconds) : undefined;
    try {
      const result = await def.run(ctx);
      await queue.complete(job.id, workerId, result ?? undefined, next);
    } catch (err) {
      // Stopped mid-job: hand it back at once, without spending an attempt, for the next worker.
      if (signal.aborted && stopped) {
        await queue.release(job.id, workerId);
        return;
      }
      const retry = def.retryable ? def.retryable(err) : !(err instanceof PermanentJobError);
      const status = await queue.fail(job.id, workerId, errorText(err), { retry, next });
      log.warn({ jobId: job.id, kind: job.kind, status, err: errorText(err) }, 'job failed');
      try {
        if (status === 'queued') await def.onRetry?.(payload, err);
        else await def.onGiveUp?.(payload, err);
      } catch (hookErr) {
        log.error({ err: errorText(hookErr), jobId: job.id, kind: job.kind }, 'failure hook failed');
      }
    }
  }

  async function runOnce(): Promise<number> {
    await seedRecurring();
    for (const job of await queue.reclaimExpired()) await afterReclaim(job);
    if (stopped) return 0;
    if (kinds.length === 0) return 0;
    const claimed = await queue.claim(workerId, batchSize, defaultLease, kinds);
    for (const job of claimed) await runJob(job);
    return claimed.length;
  }

  const schedule = (delay: number) => {
    if (!stopped) timer = setTimeout(tick, delay);
  };

  async function tick(): Promise<void> {
    timer = undefined;
    try {
      // Checked on every round: stop() must not be followed by one more claim on a closing pool.
      while (!stopped && (await (round = runOnce())) > 0) {
        /* keep draining */
      }
    } catch (err) {
      log.error({ err: errorText(err), queue: options.queue }, 'job runner round failed');
    } finally {
      round = undefined;
      schedule(intervalMs);
    }
  }

  return {
    workerId,
    queue,
    define,
    async enqueue(kind, payload, enqueueOptions, tx) {
      const def = byKind.get(kind);
      if (!def) throw new Error(`unknown job kind ${kind} in queue ${options.queue}`);
      def.parse(payload);
      return queue.enqueue(kind, payload, { maxAttempts: def.maxAttempts, ...enqueueOptions }, tx);
    },
    runOnce,
    async drain() {
      let total = 0;
      for (let n = await runOnce(); n > 0; n = await runOnce()) total += n;
      return total;
    },
    start(every = 1000) {
      intervalMs = every;
      stopped = false;
      controller = new AbortController();
      schedule(0);
    },
    wake() {
      if (stopped || round || !timer) return;
      clearTimeout(timer);
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      controller.abort();
      await round?.catch(() => undefined);
    },
  };
}
