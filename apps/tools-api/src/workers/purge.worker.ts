// The expiry sweep: content whose expires_at has passed (anonymous content after 24 hours, or any content an
// admin set to expire) is deleted with what hangs off it (responses, collection items, saved prompts; flipbook
// pages cascade), in batches so no transaction holds many locks; then the stored PDFs of deleted flipbooks,
// sessions expired for 30 days, and rate-limit windows older than two days.
import type postgres from 'postgres';
import { TOOL_ROUTES, type ToolRoute } from '@story/db';
import type { ObjectStorage } from '@story/providers';
import { defineJob } from '@story/jobs';
import type { WorkerLog } from './bulk-jobs.worker';
import { createPurgeRepository } from './workers.repository';

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
  const purge = createPurgeRepository(deps.sql);
  const result: PurgeResult = { content: {}, responses: 0, files: 0, sessions: 0, rateLimitWindows: 0 };
  for (const tool of TOOL_ROUTES) {
    for (;;) {
      const { ids, keys, responses } = await purge.deleteExpiredBatch(tool, BATCH);
      if (ids.length) result.content[tool] = (result.content[tool] ?? 0) + ids.length;
      result.responses += responses;
      // Stored files go after the rows' commit: a file left behind costs storage, never a dangling row.
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
  Object.assign(result, await purge.deleteStale());
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
