// The SQL of the tools queue's two job kinds (CONVENTIONS 7), raw postgres.js: the admin bulk rows and the
// expiry purge. The purge deletes in batches under FOR UPDATE SKIP LOCKED so no transaction holds many
// locks and two replicas never fight over the same rows.
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import { toolTableName } from '../shared/tool-param';

export interface BulkRow {
  id: string;
  tool: ToolRoute;
  requested_by: string | null;
  options: { base?: Record<string, unknown>; variations?: Record<string, unknown>[]; isPublic?: boolean; isFeatured?: boolean };
  requested_count: number;
  completed_count: number;
  failed_count: number;
  collection_id: string | null;
}

export function createBulkJobsRepository(sql: postgres.Sql) {
  return {
    /** The row, marked running; undefined when it was cancelled or already finished. */
    async start(bulkJobId: string): Promise<BulkRow | undefined> {
      const [row] = await sql<BulkRow[]>`
        update tools_bulk_jobs set status = 'running', started_at = coalesce(started_at, now()), updated_at = now()
         where id = ${bulkJobId} and status in ('queued', 'running')
        returning id, tool, requested_by, options, requested_count, completed_count, failed_count, collection_id`;
      return row;
    },

    /** Count one item done or failed; returns the row's status now (a cancelled job stops at this checkpoint). */
    async checkpoint(bulkJobId: string, ok: boolean): Promise<string | undefined> {
      const [still] = await sql<{ status: string }[]>`
        update tools_bulk_jobs set completed_count = completed_count + ${ok ? 1 : 0}, failed_count = failed_count + ${ok ? 0 : 1}, updated_at = now()
         where id = ${bulkJobId} returning status`;
      return still?.status;
    },

    async finish(bulkJobId: string, status: 'completed' | 'failed', error: string | null): Promise<void> {
      await sql`
        update tools_bulk_jobs set status = ${status}, completed_at = now(), updated_at = now(), error = ${error}
         where id = ${bulkJobId} and status = 'running'`;
    },

    async giveUp(bulkJobId: string): Promise<void> {
      await sql`update tools_bulk_jobs set status = 'failed', error = 'internal error', completed_at = now(), updated_at = now()
                 where id = ${bulkJobId} and status in ('queued', 'running')`;
    },
  };
}

export function createPurgeRepository(sql: postgres.Sql) {
  return {
    /**
     * Delete one batch of expired content of a tool with what hangs off it (responses, collection items and
     * saved prompts point into the tool's table without a foreign key), in one transaction; returns the ids
     * gone, their stored PDF keys, and the responses removed.
     */
    async deleteExpiredBatch(tool: ToolRoute, batch: number): Promise<{ ids: string[]; keys: string[]; responses: number }> {
      const table = sql(toolTableName(tool));
      return sql.begin(async (tx) => {
        const gone = await tx<{ id: string; metadata: Record<string, unknown> }[]>`
          delete from ${table} where id in (
            select id from ${table} where expires_at < now() order by expires_at limit ${batch} for update skip locked)
          returning id, metadata`;
        const ids = gone.map((g) => g.id);
        if (!ids.length) return { ids: [], keys: [], responses: 0 };
        const r = await tx`delete from tools_responses where tool = ${tool} and prompt_id in ${tx(ids)}`;
        await tx`delete from tools_collection_items where tool = ${tool} and content_id in ${tx(ids)}`;
        await tx`delete from tools_saved_prompts where tool = ${tool} and content_id in ${tx(ids)}`;
        const keys = gone.map((g) => g.metadata?.['pdfKey']).filter((k): k is string => typeof k === 'string');
        return { ids, keys, responses: r.count };
      });
    },

    /** Sessions expired for 30 days, and rate-limit windows older than two days. */
    async deleteStale(): Promise<{ sessions: number; rateLimitWindows: number }> {
      const sessions = (await sql`delete from tools_sessions where expires_at < now() - interval '30 days'`).count;
      const rateLimitWindows = (await sql`delete from tools_rate_limits where window_start < now() - interval '2 days'`).count;
      return { sessions, rateLimitWindows };
    },
  };
}
