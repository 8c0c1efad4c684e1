// The expiry sweep: content whose expires_at has passed (anonymous content after 24 hours, or any content an
// admin set to expire) is deleted with what hangs off it (responses, collection items, saved prompts; flipbook
// pages cascade), in batches so no transaction holds many locks; then the stored PDFs of deleted flipbooks,
// sessions expired for 30 days, and rate-limit windows older than two days.
import type postgres from 'postgres';
import { TOOL_ROUTES, type ToolRoute } from '@story/db';
import type { ObjectStorage } from '@story/providers';
import { toolTableName } from '../shared/tool-param';
import { defineJob } from '@story/jobs';
import type { WorkerLog } from './bulk-jobs.worker';

export const PURGE_JOB_KIND = 'tools.purge';

export interface PurgeResult {
  content: Partial<Record<ToolRoute, number>>;
  responses: number;
  files: number;
  sessions: number;
  rateLimitWindows: number;
}

const BATCH = 500;

export async function purgeExpiredContent(deps: { sql: postgres.Sql; storage: Pick<ObjectStorage, 'delete'>; log?: WorkerLog }): Promise<PurgeResult> {
  const { sql } = deps;
  const result: PurgeResult = { content: {}, responses: 0, files: 0, sessions: 0, rateLimitWindows: 0 };
  for (const tool of TOOL_ROUTES) {
    const table = sql(toolTableName(tool));
    for (;;) {
      const { ids, keys, responses } = await sql.begin(async (tx) => {
        const gone = await tx<{ id: string; metadata: Record<string, unknown> }[]>`
          delete from ${table} where id in (
            select id from ${table} where expires_at < now() order by expires_at limit ${BATCH} for update skip locked)
          returning id, metadata`;
        const goneIds = gone.map((g) => g.id);
        if (!goneIds.length) return { ids: [], keys: [], responses: 0 };
        // prompt_id / content_id point into the tool's table without a foreign key: removed here, in the same transaction.
        const r = await tx`delete from tools_responses where tool = ${tool} and prompt_id in ${tx(goneIds)}`;
        await tx`delete from tools_collection_items where tool = ${tool} and content_id in ${tx(goneIds)}`;
        await tx`delete from tools_saved_prompts where tool = ${tool} and content_id in ${tx(goneIds)}`;
        const fileKeys = gone.map((g) => g.metadata?.['pdfKey']).filter((k): k is string => typeof k === 'string');
        return { ids: goneIds, keys: fileKeys, responses: r.count };
      });
      if (ids.length) result.content[tool] = (result.content[tool] ?? 0) + ids.length;
      result.responses += responses;
      for (const key of keys) {
        try {
          await deps.storage.delete(key);
          result.files++;
        } catch (err) {
          deps.log?.warn({ err, key }, 'could not delete a purged flipbook file');
        }
      }
      if (ids.length < BATCH) break;
    }
  }
  result.sessions = (await sql`delete from tools_sessions where expires_at < now() - interval '30 days'`).count;
  result.rateLimitWindows = (await sql`delete from tools_rate_limits where window_start < now() - interval '2 days'`).count;
  return result;
}

/** The sweep as a recurring job of the one runner: exactly one is queued, due `everySeconds` after the last. */
export function purgeJob(deps: { sql: postgres.Sql; storage: Pick<ObjectStorage, 'delete'>; log?: WorkerLog; everySeconds: number }) {
  return defineJob({
    kind: PURGE_JOB_KIND,
    parse: () => ({}),
    everySeconds: deps.everySeconds,
    maxAttempts: 3,
    async run() {
      const purged = await purgeExpiredContent(deps);
      deps.log?.info({ purged }, 'expired tools content purged');
      return { ...purged };
    },
  });
}
