// The SQL of the admin routes: every row of a tool (expired ones too, on request), review, feature and
// expiry changes, a tool's analytics, collections, bulk-job rows, flipbooks and samples. Raw postgres.js
// throughout: the tool's table is chosen at run time.
import type postgres from 'postgres';
import { TOOL_ROUTES, type ToolRoute } from '@story/db';
import { toolTableName } from '../../shared/tool-param';
import type { ContentRow } from '../browse/browse.types';

type Sql = postgres.Sql | postgres.TransactionSql;

/** GET /api/admin/{tool}/browse: every row of a tool, filtered by the review and feature flags. */
export interface AdminBrowseQuery {
  page: number;
  limit: number;
  sort: 'newest' | 'popular' | 'featured' | 'rating';
  search?: string;
  reviewed?: boolean;
  featured?: boolean;
  isPublic?: boolean;
  includeExpired?: boolean;
}

export interface BulkRow {
  id: string;
  tool: string;
  status: string;
  requested_count: number;
  completed_count: number;
  failed_count: number;
  collection_id: string | null;
  error: string | null;
  created_at: unknown;
  started_at: unknown;
  completed_at: unknown;
}

export interface CollectionListRow {
  id: string;
  title: string;
  description: string | null;
  slug: string;
  is_featured: boolean;
  is_published: boolean;
  seo_title: string | null;
  seo_description: string | null;
  keywords: string[] | null;
  created_at: unknown;
  updated_at: unknown;
  item_count: number;
}

export interface NewCollection {
  title: string;
  description: string | null;
  slug: string;
  isFeatured: boolean;
  isPublished: boolean;
  seoTitle: string | null;
  seoDescription: string | null;
  keywords: string[] | null;
  createdBy: string;
}

export interface FlipbookListRow {
  id: string;
  share_code: string;
  title: string | null;
  is_public: boolean;
  page_count: number;
  metadata: Record<string, unknown>;
  created_at: unknown;
  expires_at: unknown;
}

/** A change an admin makes to one row; review keeps its decision in metadata. */
export type AdminChange =
  | { kind: 'review'; approved: boolean; isPublic?: boolean; decision: Record<string, unknown> }
  | { kind: 'feature'; featured: boolean }
  | { kind: 'expiry'; expiresAt: Date | null };

export function createAdminRepository(sql: postgres.Sql) {
  const rowColumns = (tool: ToolRoute) => sql`
    t.*, (select count(*)::int from tools_responses r where r.tool = ${tool} and r.prompt_id = t.id and r.deleted_at is null) as response_count,
    case when t.rating_count > 0 then round(t.rating_sum::numeric / t.rating_count, 2)::float8 else 0 end as average_rating`;

  const setOf = (change: AdminChange) => {
    switch (change.kind) {
      case 'review': {
        const review = sql`metadata = metadata || ${JSON.stringify({ review: change.decision })}::jsonb`;
        // Approving can publish; rejecting always unpublishes (and unfeatures).
        return change.approved
          ? sql`is_reviewed = true, ${review} ${change.isPublic === undefined ? sql`` : sql`, is_public = ${change.isPublic}, share_type = ${change.isPublic ? 'public' : 'private'}`}`
          : sql`is_reviewed = true, ${review}, is_public = false, is_featured = false, share_type = 'private'`;
      }
      case 'feature':
        // Featured content is shown to everyone: featuring also publishes it and keeps it from expiring.
        return change.featured ? sql`is_featured = true, is_public = true, is_reviewed = true, share_type = 'public', expires_at = null` : sql`is_featured = false`;
      case 'expiry':
        return sql`expires_at = ${change.expiresAt ? change.expiresAt.toISOString() : null}`;
    }
  };

  return {
    async findRow(tool: ToolRoute, id: string): Promise<ContentRow | null> {
      const [row] = await sql<ContentRow[]>`select ${rowColumns(tool)} from ${sql(toolTableName(tool))} t where t.id = ${id} and t.deleted_at is null`;
      return row ?? null;
    },

    /** Apply one admin change to a live row; false when there is none. */
    async change(tool: ToolRoute, id: string, change: AdminChange): Promise<boolean> {
      const [row] = await sql<{ id: string }[]>`update ${sql(toolTableName(tool))} t set ${setOf(change)}, updated_at = now() where t.id = ${id} and t.deleted_at is null returning t.id`;
      return !!row;
    },

    async browse(tool: ToolRoute, q: AdminBrowseQuery): Promise<{ rows: ContentRow[]; total: number }> {
      const table = sql(toolTableName(tool));
      const where = sql`t.deleted_at is null
        ${q.includeExpired ? sql`` : sql`and (t.expires_at is null or t.expires_at > now())`}
        ${q.reviewed === undefined ? sql`` : sql`and t.is_reviewed = ${q.reviewed}`}
        ${q.featured === undefined ? sql`` : sql`and t.is_featured = ${q.featured}`}
        ${q.isPublic === undefined ? sql`` : sql`and t.is_public = ${q.isPublic}`}
        ${q.search ? sql`and t.search_vector @@ websearch_to_tsquery('english', ${q.search})` : sql``}`;
      const order =
        q.sort === 'popular' ? sql`t.view_count desc` : q.sort === 'featured' ? sql`t.is_featured desc, t.created_at desc` : q.sort === 'rating' ? sql`(t.rating_sum::float8 / nullif(t.rating_count, 0)) desc nulls last` : sql`t.created_at desc`;
      const [rows, [count]] = await Promise.all([
        sql<ContentRow[]>`select ${rowColumns(tool)} from ${table} t where ${where} order by ${order}, t.id desc limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
        sql<{ total: number }[]>`select count(*)::int as total from ${table} t where ${where}`,
      ]);
      return { rows, total: count?.total ?? 0 };
    },

    /** A tool's content totals, events, generation trend, AI usage, rate-limit hits and responses over the last `days` days. */
    async analytics(tool: ToolRoute, days: number) {
      const table = sql(toolTableName(tool));
      const since = sql`now() - ${`${days} days`}::interval`;
      const [[content], events, trend, [ai], models, hits, [responses]] = await Promise.all([
        sql<{ total: number; public: number; featured: number; reviewed: number; anonymous: number; views: number; shares: number; exports: number }[]>`
          select count(*)::int as total, count(*) filter (where is_public)::int as public, count(*) filter (where is_featured)::int as featured,
                 count(*) filter (where is_reviewed)::int as reviewed, count(*) filter (where user_id is null)::int as anonymous,
                 coalesce(sum(view_count), 0)::int as views, coalesce(sum(share_count), 0)::int as shares, coalesce(sum(export_count), 0)::int as exports
          from ${table} where deleted_at is null and (expires_at is null or expires_at > now())`,
        sql<{ event_type: string; n: number }[]>`select event_type, count(*)::int as n from tools_analytics where tool = ${tool} and created_at > ${since} group by event_type`,
        sql<{ date: string; n: number }[]>`select to_char(date_trunc('day', created_at), 'YYYY-MM-DD') as date, count(*)::int as n from tools_analytics where tool = ${tool} and event_type = 'generate' and created_at > ${since} group by 1 order by 1`,
        sql<{ calls: number; failures: number; tokens: number; cost: number; avg_ms: number | null }[]>`
          select count(*)::int as calls, count(*) filter (where not success)::int as failures, coalesce(sum(tokens_used), 0)::int as tokens,
                 coalesce(sum(cost_usd), 0)::float8 as cost, avg(generation_time_ms)::float8 as avg_ms
          from tools_ai_usage where tool = ${tool} and created_at > ${since}`,
        sql<{ model: string; n: number }[]>`select coalesce(model, 'unknown') as model, count(*)::int as n from tools_ai_usage where tool = ${tool} and created_at > ${since} group by 1 order by 2 desc`,
        sql<{ scope: string; n: number }[]>`select scope, count(*)::int as n from tools_rate_limit_hits where tool in (${tool}, '*') and created_at > ${since} group by scope`,
        sql<{ total: number; public: number }[]>`select count(*)::int as total, count(*) filter (where is_public)::int as public from tools_responses where tool = ${tool} and deleted_at is null and created_at > ${since}`,
      ]);
      return { content: content!, events, trend, ai: ai!, models, hits, responses: responses! };
    },

    async listCollections(tool: ToolRoute): Promise<CollectionListRow[]> {
      return sql<CollectionListRow[]>`
        select c.*, (select count(*)::int from tools_collection_items i where i.collection_id = c.id) as item_count
        from tools_collections c where c.tool = ${tool} order by c.created_at desc`;
    },

    /** The new collection's id; a taken slug throws PostgreSQL's unique violation. */
    async insertCollection(tool: ToolRoute, c: NewCollection): Promise<string> {
      const [row] = await sql<{ id: string }[]>`
        insert into tools_collections (tool, title, description, slug, is_featured, is_published, seo_title, seo_description, keywords, created_by)
        values (${tool}, ${c.title}, ${c.description}, ${c.slug}, ${c.isFeatured}, ${c.isPublished},
                ${c.seoTitle}, ${c.seoDescription}, ${c.keywords}, ${c.createdBy})
        returning id`;
      return row!.id;
    },

    async collectionExists(tool: ToolRoute, collectionId: string): Promise<boolean> {
      const [collection] = await sql`select id from tools_collections where id = ${collectionId} and tool = ${tool}`;
      return !!collection;
    },

    async insertBulkJob(tool: ToolRoute, requestedBy: string, options: Record<string, unknown>, count: number, collectionId: string | null, tx: Sql): Promise<BulkRow> {
      const [inserted] = await tx<BulkRow[]>`
        insert into tools_bulk_jobs (tool, requested_by, options, requested_count, collection_id)
        values (${tool}, ${requestedBy}, ${JSON.stringify(options)}::jsonb,
                ${count}, ${collectionId})
        returning *`;
      return inserted!;
    },

    async findJob(tool: ToolRoute, jobId: string): Promise<BulkRow | null> {
      const [row] = await sql<BulkRow[]>`select * from tools_bulk_jobs where id = ${jobId} and tool = ${tool}`;
      return row ?? null;
    },

    listJobs: (tool: ToolRoute) => sql<BulkRow[]>`select * from tools_bulk_jobs where tool = ${tool} order by created_at desc limit 50`,

    listFlipbooks: (limit: number, offset: number) => sql<FlipbookListRow[]>`
        select f.id, f.share_code, f.title, f.is_public, f.metadata, f.created_at, f.expires_at,
               (select count(*)::int from tools_flipbook_pages p where p.flipbook_id = f.id) as page_count
        from tools_flipbooks f where f.deleted_at is null order by f.created_at desc limit ${limit} offset ${offset}`,

    /** The row is set to expire immediately, so the purge deletes it and its file; false when there is none. */
    async removeFlipbook(id: string): Promise<boolean> {
      const [row] = await sql`update tools_flipbooks set deleted_at = now(), expires_at = now(), is_public = false where id = ${id} and deleted_at is null returning id`;
      return !!row;
    },

    /** The newest three sample rows of each tool, tool by tool. */
    async samples(): Promise<{ tool: ToolRoute; id: string; share_code: string; title: string | null; created_at: unknown }[]> {
      const out: { tool: ToolRoute; id: string; share_code: string; title: string | null; created_at: unknown }[] = [];
      for (const tool of TOOL_ROUTES) {
        const rows = await sql<{ id: string; share_code: string; title: string | null; created_at: unknown }[]>`
          select id, share_code, title, created_at from ${sql(toolTableName(tool))}
          where metadata->>'origin' = 'sample' and deleted_at is null order by created_at desc limit 3`;
        out.push(...rows.map((r) => ({ tool, ...r })));
      }
      return out;
    },
  };
}
