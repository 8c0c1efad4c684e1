// Admin bulk generation as a job of the one runner (libs/jobs): the tools_bulk_jobs row holds what the
// admin asked for and its progress; a `tools.bulk_generate` job, queued in the same transaction, does the
// work. Items are generated one by one and checkpointed (completed/failed counts, and the runner's
// progress, which extends the lease) after each, so a job whose worker died is taken over by the sweep
// and resumes where it stopped. A cancelled row stops the job at the next checkpoint.
import type postgres from 'postgres';
import { z } from 'zod';
import { toolsCollectionItems, type ToolRoute } from '@story/db';
import { defineJob, type JobContext } from '@story/jobs';
import { parseOptions, type GenerateService } from '../features/generate/generate.service';
import { toolDefinition } from '../tools';

export const BULK_JOB_KIND = 'tools.bulk_generate';

export interface WorkerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

interface BulkRow {
  id: string;
  tool: ToolRoute;
  requested_by: string | null;
  options: { base?: Record<string, unknown>; variations?: Record<string, unknown>[]; isPublic?: boolean; isFeatured?: boolean };
  requested_count: number;
  completed_count: number;
  failed_count: number;
  collection_id: string | null;
}

const payloadSchema = z.object({ bulkJobId: z.uuid() });

export function bulkGenerateJob(deps: { sql: postgres.Sql; generate: GenerateService; log?: WorkerLog }) {
  const { sql } = deps;

  /** The row, marked running; null when it was cancelled or already finished (nothing to do). */
  async function start(bulkJobId: string): Promise<BulkRow | null> {
    const [row] = await sql<BulkRow[]>`
      update tools_bulk_jobs set status = 'running', started_at = coalesce(started_at, now()), updated_at = now()
       where id = ${bulkJobId} and status in ('queued', 'running')
      returning id, tool, requested_by, options, requested_count, completed_count, failed_count, collection_id`;
    return row ?? null;
  }

  async function generateOne(job: BulkRow, position: number): Promise<void> {
    const caller = { sessionId: `admin-bulk:${job.id}`, userId: job.requested_by, ipPrefix: 'admin', userAgent: 'bulk-generate' };
    const variations = job.options.variations?.length ? job.options.variations : [{}];
    const options = parseOptions(toolDefinition(job.tool).optionsSchema, { ...(job.options.base ?? {}), ...variations[position % variations.length] });
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
            await tx.insert(toolsCollectionItems).values({ collectionId: job.collection_id!, tool: job.tool, contentId, position });
          }
        : undefined,
    });
  }

  async function run(ctx: JobContext<{ bulkJobId: string }>) {
    const job = await start(ctx.payload.bulkJobId);
    if (!job) return { skipped: 'cancelled or finished' };
    let done = job.completed_count + job.failed_count;
    let failed = job.failed_count;
    while (done < job.requested_count) {
      if (ctx.signal.aborted) throw new Error('stopped');
      let ok = true;
      try {
        await generateOne(job, done);
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
      if (still?.status !== 'running') return { stopped: still?.status ?? 'deleted' };
      await ctx.progress({ done, total: job.requested_count });
    }
    const status = failed === job.requested_count ? 'failed' : 'completed';
    await sql`
      update tools_bulk_jobs set status = ${status}, completed_at = now(), updated_at = now(),
             error = ${failed ? `${failed} of ${job.requested_count} items failed` : null}
       where id = ${job.id} and status = 'running'`;
    return { status, failed };
  }

  return defineJob({
    kind: BULK_JOB_KIND,
    parse: (p) => payloadSchema.parse(p),
    // One item takes seconds; progress after each extends this.
    leaseSeconds: 5 * 60,
    maxAttempts: 5,
    run,
    async onGiveUp({ bulkJobId }, error) {
      deps.log?.error({ jobId: bulkJobId, err: error }, 'bulk job gave up');
      await sql`update tools_bulk_jobs set status = 'failed', error = 'internal error', completed_at = now(), updated_at = now()
                 where id = ${bulkJobId} and status in ('queued', 'running')`;
    },
  });
}
