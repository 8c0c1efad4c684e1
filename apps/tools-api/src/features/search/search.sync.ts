// Keeping an external search engine in step (spec 002 Endpoints, GET /api/search). The triggers of
// tools_search note every changed id in tools_search_changes while tools_search_state.external is on; the
// recurring job below (tools queue, libs/jobs) pushes those documents to Meilisearch and deletes the ones
// that are gone. A failed push leaves the ids in the outbox and the runner retries; an id changed again
// during a push keeps its newer entry (removed only when changed_at still matches).
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import { defineJob } from '@story/jobs';
import { toolTableName } from '../../shared/tool-param';
import { NEVER, settle, INDEX_SETTINGS, type MeiliIndex, type SearchDocument } from './search.meilisearch';

export const SEARCH_SYNC_JOB_KIND = 'tools.search-sync';
const BATCH = 500;

/**
 * At start: feed the outbox only when an external engine is configured. Turning it on queues every
 * document once (the first full index); turning it off empties the outbox.
 */
export async function setExternalSearch(sql: postgres.Sql, external: boolean): Promise<{ queued: number }> {
  return sql.begin(async (tx) => {
    const [flipped] = await tx<{ external: boolean }[]>`
      update tools_search_state set external = ${external} where singleton and external <> ${external} returning external`;
    if (!flipped) return { queued: 0 };
    if (!external) {
      await tx`delete from tools_search_changes`;
      return { queued: 0 };
    }
    const queued = await tx`insert into tools_search_changes (id) select id from tools_search on conflict (id) do nothing`;
    return { queued: queued.count };
  });
}

type Row = Omit<SearchDocument, 'toolKind' | 'body' | 'keywords' | 'createdAt' | 'expiresAt' | 'shareExpiresAt' | 'deleted'> & {
  keywords: string[] | null;
  body: string | null;
  created_at: Date;
  expires_at: Date | null;
  share_expires_at: Date | null;
  deleted_at: Date | null;
};

/** tools_search rows of these ids with their text (content: SEO description and the content json's strings). */
async function documents(sql: postgres.Sql, ids: string[]): Promise<SearchDocument[]> {
  const tools = await sql<{ tool: ToolRoute }[]>`select distinct tool from tools_search where id in ${sql(ids)} and kind = 'content'`;
  const bodies = tools.map(
    ({ tool }) => sql`select c.id, coalesce(c.seo_description, '') || ' ' ||
                        coalesce((select string_agg(v #>> '{}', ' ') from jsonb_path_query(c.content, 'strict $.** ? (@.type() == "string")') v), '') as body
                      from ${sql(toolTableName(tool))} c where c.id in ${sql(ids)}`,
  );
  const text = [...bodies, sql`select r.id, r.content as body from tools_responses r where r.id in ${sql(ids)}`].reduce((acc, b) => sql`${acc} union all ${b}`);
  const rows = await sql<Row[]>`
    select s.id, s.tool, s.kind, coalesce(s.title, '') as title, s.keywords, s.share_code as "shareCode", s.prompt_id as "promptId",
           s.session_id as "sessionId", coalesce(s.user_id::text, '') as "userId", s.is_public as "isPublic", s.share_type as "shareType",
           s.share_expires_at, s.expires_at, s.deleted_at, s.moderation_status as "moderationStatus", s.view_count as "viewCount", s.created_at, b.body
    from tools_search s left join (${text}) b on b.id = s.id
    where s.id in ${sql(ids)}`;
  const ms = (d: Date | string | null) => (d === null ? NEVER : new Date(d).getTime());
  return rows.map(({ keywords, body, created_at, expires_at, share_expires_at, deleted_at, ...r }) => ({
    ...r,
    toolKind: `${r.tool}|${r.kind}`,
    keywords: keywords ?? [],
    body: body ?? '',
    createdAt: ms(created_at),
    expiresAt: ms(expires_at),
    shareExpiresAt: ms(share_expires_at),
    deleted: deleted_at !== null,
  }));
}

/** Push the outbox to the engine in batches; returns how many documents were upserted and deleted. */
export async function syncSearch(deps: { sql: postgres.Sql; index: () => Promise<MeiliIndex> }): Promise<{ upserted: number; deleted: number }> {
  const { sql } = deps;
  const index = await deps.index();
  const result = { upserted: 0, deleted: 0 };
  let settingsApplied = false;
  for (;;) {
    const batch = await sql<{ id: string; changed_at: string }[]>`select id, changed_at::text as changed_at from tools_search_changes order by changed_at, id limit ${BATCH}`;
    if (batch.length === 0) return result;
    if (!settingsApplied) {
      await settle(index.updateSettings(INDEX_SETTINGS));
      settingsApplied = true;
    }
    const ids = batch.map((b) => b.id);
    const docs = await documents(sql, ids);
    const present = new Set(docs.map((d) => d.id));
    const gone = ids.filter((id) => !present.has(id));
    if (docs.length) await settle(index.addDocuments(docs, { primaryKey: 'id' }));
    if (gone.length) await settle(index.deleteDocuments(gone));
    await sql`
      delete from tools_search_changes c using (select unnest(${ids}::uuid[]) as id, unnest(${batch.map((b) => b.changed_at)}::text[])::timestamptz as changed_at) d
      where c.id = d.id and c.changed_at = d.changed_at`;
    result.upserted += docs.length;
    result.deleted += gone.length;
  }
}

export function searchSyncJob(deps: { sql: postgres.Sql; index: () => Promise<MeiliIndex>; everySeconds: number }) {
  return defineJob({
    kind: SEARCH_SYNC_JOB_KIND,
    parse: () => ({}),
    everySeconds: deps.everySeconds,
    maxAttempts: 5,
    async run() {
      return syncSearch(deps);
    },
  });
}
