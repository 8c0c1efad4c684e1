// Browse (GET /api/{tool}, /api/{tool}/browse) and one item (GET /api/{tool}/{id or share code}). Expired and
// soft-deleted rows never show. Visible: public content (an expiring share only until it expires), plus the
// caller's own content by session or account. By share code, the link itself grants access (private links
// are unlisted, not secret from their holders), unless an expiring link has run out.
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import type { ToolsCaller } from '../../shared/caller';
import { isPrivileged } from '../../shared/caller';
import { toDate, toIso } from '../../shared/dates';
import { toolsError } from '../../shared/errors';
import { toolTableName } from '../../shared/tool-param';

export const BROWSE_SORTS = ['newest', 'popular', 'featured', 'rating'] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];

export interface BrowseQuery {
  page: number;
  limit: number;
  sort: BrowseSort;
  search?: string;
  isPublic?: boolean;
  featured?: boolean;
  category?: string;
  /** Include this session's own (private) content. */
  sessionId?: string;
  /** Include this account's own content (from a valid Bearer token only). */
  userId?: string | null;
}

export interface ContentRow {
  id: string;
  share_code: string;
  title: string | null;
  content: Record<string, unknown>;
  seo_title: string | null;
  seo_description: string | null;
  keywords: string[] | null;
  view_count: number;
  share_count: number;
  export_count: number;
  response_count: number;
  average_rating: number;
  /** Timestamps arrive as strings from raw queries (see shared/dates.ts). */
  created_at: string | Date;
  updated_at: string | Date;
  is_public: boolean;
  is_featured: boolean;
  is_reviewed: boolean;
  category: string | null;
  session_id: string;
  user_id: string | null;
  expires_at: string | Date | null;
  share_type: string;
  share_expires_at: string | Date | null;
  ai_model: string | null;
  is_ai_generated: boolean;
  ai_tokens_used: number | null;
  ai_confidence: string | number | null;
  generation_time_ms: number | null;
  generation_options: Record<string, unknown> | null;
  metadata: Record<string, unknown>;
}

export interface BrowseItem {
  id: string;
  shareCode: string;
  title: string;
  content: Record<string, unknown>;
  seoTitle: string | null;
  seoDescription: string | null;
  keywords: string[];
  viewCount: number;
  shareCount: number;
  responseCount: number;
  averageRating: number;
  createdAt: string;
  updatedAt: string;
  isPublic: boolean;
  isFeatured: boolean;
  category: string | null;
}

export interface ContentDetail extends BrowseItem {
  tool: ToolRoute;
  exportCount: number;
  isReviewed: boolean;
  isOwner: boolean;
  shareType: string;
  expiresAt: string | null;
  seoMetadata: { title: string; description: string; keywords: string[] };
  aiMetadata: { model: string | null; tokensUsed: number | null; processingTime: number | null; confidenceScore: number | null; isAiGenerated: boolean };
  generationOptions: Record<string, unknown>;
}

export const toBrowseItem = (r: ContentRow): BrowseItem => ({
  id: r.id,
  shareCode: r.share_code,
  title: r.title ?? '',
  content: r.content,
  seoTitle: r.seo_title,
  seoDescription: r.seo_description,
  keywords: r.keywords ?? [],
  viewCount: r.view_count,
  shareCount: r.share_count,
  responseCount: r.response_count,
  averageRating: Number(r.average_rating),
  createdAt: toIso(r.created_at),
  updatedAt: toIso(r.updated_at),
  isPublic: r.is_public,
  isFeatured: r.is_featured,
  category: r.category,
});

export function toDetail(tool: ToolRoute, r: ContentRow, caller: Pick<ToolsCaller, 'sessionId' | 'userId'> | null): ContentDetail {
  return {
    ...toBrowseItem(r),
    tool,
    exportCount: r.export_count,
    isReviewed: r.is_reviewed,
    isOwner: isOwnerOf(r, caller),
    shareType: r.share_type,
    expiresAt: toIso(r.expires_at),
    seoMetadata: { title: r.seo_title ?? '', description: r.seo_description ?? '', keywords: r.keywords ?? [] },
    aiMetadata: { model: r.ai_model, tokensUsed: r.ai_tokens_used, processingTime: r.generation_time_ms, confidenceScore: r.ai_confidence === null ? null : Number(r.ai_confidence), isAiGenerated: r.is_ai_generated },
    generationOptions: r.generation_options ?? {},
  };
}

export const isOwnerOf = (r: Pick<ContentRow, 'session_id' | 'user_id'>, caller: Pick<ToolsCaller, 'sessionId' | 'userId'> | null) =>
  !!caller && ((caller.sessionId !== '' && r.session_id === caller.sessionId) || (caller.userId !== null && r.user_id === caller.userId));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

export function createBrowseService({ sql }: { sql: postgres.Sql }) {
  const columns = (tool: ToolRoute) => sql`
    t.id, t.share_code, t.title, t.content, t.seo_title, t.seo_description, t.keywords, t.view_count, t.share_count, t.export_count,
    (select count(*)::int from tools_responses r where r.tool = ${tool} and r.prompt_id = t.id and r.deleted_at is null) as response_count,
    case when t.rating_count > 0 then round(t.rating_sum::numeric / t.rating_count, 2)::float8 else 0 end as average_rating,
    t.created_at, t.updated_at, t.is_public, t.is_featured, t.is_reviewed, t.category, t.session_id, t.user_id, t.expires_at,
    t.share_type, t.share_expires_at, t.ai_model, t.is_ai_generated, t.ai_tokens_used, t.ai_confidence, t.generation_time_ms, t.generation_options, t.metadata`;

  /** Rows that exist for anyone: not soft-deleted, not expired. */
  const alive = sql`t.deleted_at is null and (t.expires_at is null or t.expires_at > now())`;
  const listedPublic = sql`(t.is_public and (t.share_type <> 'expiring' or t.share_expires_at > now()))`;

  return {
    async browse(tool: ToolRoute, q: BrowseQuery): Promise<{ items: BrowseItem[]; total: number; hasNext: boolean }> {
      const table = sql(toolTableName(tool));
      const own = [
        q.sessionId ? sql`t.session_id = ${q.sessionId}` : null,
        q.userId ? sql`t.user_id = ${q.userId}` : null,
      ].filter((x): x is NonNullable<typeof x> => x !== null);
      const ownCondition = own.length === 2 ? sql`(${own[0]!} or ${own[1]!})` : own[0];
      const visible = ownCondition ? sql`(${listedPublic} or ${ownCondition})` : listedPublic;
      const where = sql`
        ${alive} and ${visible}
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
      const offset = (q.page - 1) * q.limit;
      // Counting every public row of a large tool costs a full scan (100 ms at 70k rows): count up to a cap
      // that covers the pages near this one, and past it use the planner's estimate. One extra row fetched
      // makes hasNext exact either way.
      const cap = Math.max(1000, offset + q.limit * 10);
      const [rows, counted] = await Promise.all([
        sql<ContentRow[]>`select ${columns(tool)} from ${table} t where ${where} order by ${order}, t.id desc limit ${q.limit + 1} offset ${offset}`,
        sql<{ total: number }[]>`select count(*)::int as total from (select 1 from ${table} t where ${where} limit ${cap}) capped`,
      ]);
      const hasNext = rows.length > q.limit;
      let total = counted[0]?.total ?? 0;
      if (total >= cap) {
        const [plan] = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[]>`explain (format json) select 1 from ${table} t where ${where}`;
        total = Math.max(total, Math.round(plan?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0));
      }
      // The estimate must agree with what this page saw.
      if (rows.length) total = Math.max(total, offset + Math.min(rows.length, q.limit) + (hasNext ? 1 : 0));
      return { items: rows.slice(0, q.limit).map(toBrowseItem), total, hasNext };
    },

    /** One live row by id or share code, without access checks (pages and admin decide). */
    async find(tool: ToolRoute, idOrShareCode: string): Promise<ContentRow | null> {
      const table = sql(toolTableName(tool));
      const match = isUuid(idOrShareCode) ? sql`t.id = ${idOrShareCode}` : sql`t.share_code = ${idOrShareCode}`;
      const [row] = await sql<ContentRow[]>`select ${columns(tool)} from ${table} t where ${match} and ${alive}`;
      return row ?? null;
    },

    /** Whether the caller may see this row (see the header comment); someone else's private id is a 404. */
    canView(row: ContentRow, via: 'id' | 'shareCode', caller: ToolsCaller | null): boolean {
      if (isOwnerOf(row, caller) || (caller && isPrivileged(caller))) return true;
      const linkAlive = row.share_type !== 'expiring' || (row.share_expires_at !== null && toDate(row.share_expires_at) > new Date());
      if (!linkAlive) return false;
      return via === 'shareCode' || row.is_public;
    },

    /** GET one: visibility, then the view is counted and recorded as an analytics event. */
    async view(tool: ToolRoute, idOrShareCode: string, caller: ToolsCaller | null, source: 'api' | 'page' | 'embed' = 'api'): Promise<ContentDetail> {
      const row = await this.find(tool, idOrShareCode);
      if (!row || !this.canView(row, isUuid(idOrShareCode) ? 'id' : 'shareCode', caller)) throw toolsError.notFound();
      const table = sql(toolTableName(tool));
      const [counted] = await sql.begin(async (tx) => {
        const updated = await tx<{ view_count: number }[]>`update ${table} set view_count = view_count + 1 where id = ${row.id} returning view_count`;
        await tx`
          insert into tools_analytics (tool, content_id, event_type, event_data, user_id, session_id, ip_address, user_agent)
          values (${tool}, ${row.id}, 'view', ${JSON.stringify({ source })}::jsonb, ${caller?.userId ?? null}, ${caller?.sessionId || null}, ${caller?.ipPrefix ?? null}, ${caller?.userAgent ?? null})`;
        return updated;
      });
      return toDetail(tool, { ...row, view_count: counted?.view_count ?? row.view_count + 1 }, caller);
    },
  };
}

export type BrowseService = ReturnType<typeof createBrowseService>;
