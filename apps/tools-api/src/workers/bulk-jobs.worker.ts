// Admin bulk generation as a job of the one runner (libs/jobs): the tools_bulk_jobs row holds what the
// admin asked for and its progress; a `tools.bulk_generate` job, queued in the same transaction, does the
// work. Items are generated one by one and checkpointed (completed/failed counts, and the runner's
// progress, which extends the lease) after each, so a job whose worker died is taken over by the sweep
// and resumes where it stopped. A cancelled row stops the job at the next checkpoint.
import type postgres from 'postgres';
import { z } from 'zod';
import { toolsCollectionItems } from '@story/db';
import { defineJob, type JobContext } from '@story/jobs';
import { parseOptions, type GenerateService } from '../features/generate/generate.service';
import { toolDefinition } from '../tools';
import { createBulkJobsRepository, type BulkRow } from './workers.repository';

export const BULK_JOB_KIND = 'tools.bulk_generate';

export interface WorkerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}


const payloadSchema = z.object({ bulkJobId: z.uuid() });

export function bulkGenerateJob(deps: { sql: postgres.Sql; generate: GenerateService; log?: WorkerLog }) {
  const bulk = createBulkJobsRepository(deps.sql);

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
    const job = await bulk.start(ctx.payload.bulkJobId);
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
      const still = await bulk.checkpoint(job.id, ok);
      if (still !== 'running') return { stopped: still ?? 'deleted' };
      await ctx.progress({ done, total: job.requested_count });
    }
    const status = failed === job.requested_count ? 'failed' : 'completed';
    await bulk.finish(job.id, status, failed ? `${failed} of ${job.requested_count} items failed` : null);
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
      await bulk.giveUp(bulkJobId);
    },
  });
}
