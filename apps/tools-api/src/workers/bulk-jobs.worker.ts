// Admin bulk generation as a durable job (tools_bulk_jobs): a runner claims one queued job with
// FOR UPDATE SKIP LOCKED (so replicas never take the same job), generates its items one by one and
// checkpoints completed/failed counts after each, so a restarted job resumes where it stopped. A job left
// 'running' without progress for five minutes (its worker died) is claimed again.
import type postgres from 'postgres';
import { toolsCollectionItems, type ToolRoute } from '@story/db';
import { parseOptions, type GenerateService } from '../features/generate/generate.service';
import { toolDefinition } from '../tools';

export interface WorkerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

interface ClaimedJob {
  id: string;
  tool: ToolRoute;
  requested_by: string | null;
  options: { base?: Record<string, unknown>; variations?: Record<string, unknown>[]; isPublic?: boolean; isFeatured?: boolean };
  requested_count: number;
  completed_count: number;
  failed_count: number;
  collection_id: string | null;
}

export interface BulkJobRunner {
  /** Claim one job and run it to the end; false when no job was waiting. */
  processNext(): Promise<boolean>;
  start(intervalMs: number): void;
  /** Ask the loop to look now (a job was just queued). */
  kick(): void;
  stop(): Promise<void>;
}

const STALE_RUNNING = '5 minutes';

export function createBulkJobRunner(deps: { sql: postgres.Sql; generate: GenerateService; log?: WorkerLog }): BulkJobRunner {
  const { sql } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  async function claim(): Promise<ClaimedJob | undefined> {
    // SKIP LOCKED: a job another runner is claiming right now is simply passed over.
    const [job] = await sql<ClaimedJob[]>`
      update tools_bulk_jobs set status = 'running', started_at = coalesce(started_at, now()), updated_at = now()
      where id = (
        select id from tools_bulk_jobs
        where status = 'queued' or (status = 'running' and updated_at < now() - ${STALE_RUNNING}::interval)
        order by created_at
        for update skip locked
        limit 1)
      returning id, tool, requested_by, options, requested_count, completed_count, failed_count, collection_id`;
    return job;
  }

  async function runJob(job: ClaimedJob): Promise<void> {
    const caller = { sessionId: `admin-bulk:${job.id}`, userId: job.requested_by, ipPrefix: 'admin', userAgent: 'bulk-generate' };
    const variations = job.options.variations?.length ? job.options.variations : [{}];
    let done = job.completed_count + job.failed_count;
    let failed = job.failed_count;
    while (done < job.requested_count && !stopped) {
      let ok = true;
      try {
        const options = parseOptions(toolDefinition(job.tool).optionsSchema, { ...(job.options.base ?? {}), ...variations[done % variations.length] });
        const produced = await deps.generate.produce(job.tool, options, job.requested_by);
        await deps.generate.store(job.tool, options, produced, caller, {
          origin: 'bulk',
          isPublic: job.options.isPublic ?? true,
          isFeatured: job.options.isFeatured ?? false,
          isReviewed: false,
          expiresAt: null,
          metadata: { bulkJobId: job.id },
          extraWrites: job.collection_id
            ? async (tx, contentId) => {
                await tx.insert(toolsCollectionItems).values({ collectionId: job.collection_id!, tool: job.tool, contentId, position: done });
              }
            : undefined,
        });
      } catch (err) {
        ok = false;
        failed++;
        deps.log?.warn({ err, jobId: job.id }, 'bulk item failed');
      }
      done++;
      // Checkpoint after every item; a cancelled job stops here.
      const [still] = await sql<{ status: string }[]>`
        update tools_bulk_jobs set completed_count = completed_count + ${ok ? 1 : 0}, failed_count = failed_count + ${ok ? 0 : 1}, updated_at = now()
        where id = ${job.id} returning status`;
      if (still?.status !== 'running') return;
    }
    if (stopped && done < job.requested_count) return;
    const status = failed === job.requested_count ? 'failed' : 'completed';
    await sql`
      update tools_bulk_jobs set status = ${status}, completed_at = now(), updated_at = now(),
        error = ${failed ? `${failed} of ${job.requested_count} items failed` : null}
      where id = ${job.id} and status = 'running'`;
  }

  async function processNext(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    try {
      await runJob(job);
    } catch (err) {
      deps.log?.error({ err, jobId: job.id }, 'bulk job failed');
      await sql`update tools_bulk_jobs set status = 'failed', error = 'internal error', completed_at = now(), updated_at = now() where id = ${job.id}`;
    }
    return true;
  }

  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      try {
        while (!stopped && (await processNext()));
      } catch (err) {
        deps.log?.error({ err }, 'bulk runner tick failed');
      }
    })().finally(() => (running = undefined));
  };

  return {
    processNext,
    start(intervalMs) {
      stopped = false;
      if (!timer) timer = setInterval(tick, intervalMs);
      timer.unref?.();
    },
    kick() {
      if (timer) tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
