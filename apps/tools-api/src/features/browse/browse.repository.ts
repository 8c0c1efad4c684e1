// The SQL of browse: the listing (with its capped count), one live row, and a counted view. Raw
// postgres.js throughout: the tool's table is chosen at run time.
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import { isUuid } from '@story/http';
import { toolTableName } from '../../shared/tool-param';
import { liveContentSql, visibleContentSql } from '../../shared/visibility';
import type { BrowseQuery, ContentRow } from './browse.types';

type Sql = postgres.Sql | postgres.TransactionSql;

export interface ViewEvent {
  source: string;
  userId: string | null;
  sessionId: string | null;
  ipPrefix: string | null;
  userAgent: string | null;
}

/** How long a list's row estimate (past the counted cap) is reused, and how many lists' estimates are kept. */
export const ESTIMATE_TTL_MS = 60_000;
const ESTIMATES_KEPT = 1_000;

export function createBrowseRepository(sql: postgres.Sql) {
  /** Per tool and filter: the planner's estimate and the largest cap a count reached, both at most ESTIMATE_TTL_MS old. */
  const estimates = new Map<string, { at: number; rows: number; atLeast: number }>();
  const columns = (tool: ToolRoute) => sql`
    t.id, t.share_code, t.title, t.content, t.seo_title, t.seo_description, t.keywords, t.view_count, t.share_count, t.export_count,
    (select count(*)::int from tools_responses r where r.tool = ${tool} and r.prompt_id = t.id and r.deleted_at is null) as response_count,
    case when t.rating_count > 0 then round(t.rating_sum::numeric / t.rating_count, 2)::float8 else 0 end as average_rating,
    t.created_at, t.updated_at, t.is_public, t.is_featured, t.is_reviewed, t.category, t.session_id, t.user_id, t.expires_at,
    t.share_type, t.share_expires_at, t.ai_model, t.is_ai_generated, t.ai_tokens_used, t.ai_confidence, t.generation_time_ms, t.generation_options, t.metadata`;
  const t = sql`t`;

  return {
    /** One page (plus one row, so hasNext is exact) and the total; visible = listed or the query's own. */
    async list(tool: ToolRoute, q: BrowseQuery, offset: number): Promise<{ rows: ContentRow[]; total: number }> {
      const table = sql(toolTableName(tool));
      const where = sql`
        ${visibleContentSql(sql, t, { sessionId: q.sessionId ?? '', userId: q.userId ?? null })}
        ${q.isPublic === undefined ? sql`` : q.isPublic ? sql`and t.is_public` : sql`and not t.is_public`}
        ${q.featured === undefined ? sql`` : sql`and t.is_featured = ${q.featured}`}
        ${q.category ? sql`and t.category = ${q.category.toLowerCase()}` : sql``}
        ${q.search ? sql`and t.search_vector @@ websearch_to_tsquery('english', ${q.search})` : sql``}`;
      const order =
        q.sort === 'popular'
          ? sql`t.view_count desc, t.created_at desc`
          : q.sort === 'featured'
            ? sql`t.is_featured desc, t.created_at desc`
            : q.sort === 'rating'
              ? sql`(t.rating_sum::float8 / nullif(t.rating_count, 0)) desc nulls last, t.rating_count desc, t.created_at desc`
              : sql`t.created_at desc`;
      // Counting every public row of a large tool costs a full scan (100 ms at 70k rows): count up to a cap
      // that covers the pages near this one, and past it use the planner's estimate. One extra row fetched
      // makes hasNext exact either way. Each sort has a partial index of listed rows in exactly this order
      // (schema tools-content.ts), so page 1 reads about limit rows. The capped count rides along in the
      // page's own statement (one round trip; a page past the end counts on its own). The estimate, and
      // that a count reached its cap, are reused for ESTIMATE_TTL_MS per tool and filter (an estimate moves
      // with ANALYZE, not with each request): a list known to be past this page's cap is not counted again.
      const cap = Math.max(200, offset + q.limit * 10);
      const estimateKey = JSON.stringify([tool, q.isPublic, q.featured, q.category, q.search, !!q.sessionId, !!q.userId]);
      const known = estimates.get(estimateKey);
      const fresh = known && known.at > Date.now() - ESTIMATE_TTL_MS ? known : undefined;
      const page = (extra: postgres.PendingQuery<postgres.Row[]>) =>
        sql<(ContentRow & { capped_total?: number })[]>`
          select ${columns(tool)} ${extra} from ${table} t where ${where} order by ${order}, t.id desc limit ${q.limit + 1} offset ${offset}`;
      let rows: (ContentRow & { capped_total?: number })[];
      let total: number;
      if (fresh && fresh.atLeast >= cap) {
        // Counted past this cap within the minute: the list is estimated anyway, so the page is the only statement.
        rows = await page(sql``);
        total = Math.max(cap, fresh.rows);
      } else {
        const capped = sql`(select count(*)::int from (select 1 from ${table} t where ${where} limit ${cap}) capped)`;
        rows = await page(sql`, ${capped} as capped_total`);
        total = rows[0] ? (rows[0].capped_total ?? 0) : ((await sql<{ total: number }[]>`select ${capped} as total`)[0]?.total ?? 0);
        if (total >= cap) {
          let estimate = fresh?.rows;
          if (estimate === undefined) {
            const [plan] = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[]>`explain (format json) select 1 from ${table} t where ${where}`;
            estimate = Math.round(plan?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
          }
          if (!known && estimates.size >= ESTIMATES_KEPT) estimates.delete(estimates.keys().next().value as string);
          estimates.set(estimateKey, { at: fresh?.at ?? Date.now(), rows: estimate, atLeast: Math.max(cap, fresh?.atLeast ?? 0) });
          total = Math.max(total, estimate);
        }
      }
      const hasNext = rows.length > q.limit;
      // The estimate must agree with what this page saw.
      if (rows.length) total = Math.max(total, offset + Math.min(rows.length, q.limit) + (hasNext ? 1 : 0));
      return { rows, total };
    },

    /** One live row by id or share code. */
    async find(tool: ToolRoute, idOrShareCode: string): Promise<ContentRow | null> {
      const table = sql(toolTableName(tool));
      const match = isUuid(idOrShareCode) ? sql`t.id = ${idOrShareCode}` : sql`t.share_code = ${idOrShareCode}`;
      const [row] = await sql<ContentRow[]>`select ${columns(tool)} from ${table} t where ${match} and ${liveContentSql(sql, t)}`;
      return row ?? null;
    },

    /** Count one view and record it as an analytics event, in one transaction; the new view_count. */
    async countView(tool: ToolRoute, id: string, event: ViewEvent, tx?: Sql): Promise<number | undefined> {
      const run = async (q: Sql) => {
        const [counted] = await q<{ view_count: number }[]>`update ${q(toolTableName(tool))} set view_count = view_count + 1 where id = ${id} returning view_count`;
        await q`
          insert into tools_analytics (tool, content_id, event_type, event_data, user_id, session_id, ip_address, user_agent)
          values (${tool}, ${id}, 'view', ${JSON.stringify({ source: event.source })}::jsonb, ${event.userId}, ${event.sessionId}, ${event.ipPrefix}, ${event.userAgent})`;
        return counted?.view_count;
      };
      return tx ? run(tx) : sql.begin(run);
    },
  };
}

export type BrowseRepository = ReturnType<typeof createBrowseRepository>;
