// Admin operations per tool (spec 002 framework admin pattern): browse everything, review, feature, set the
// expiry, analytics, collections, bulk-generation jobs; plus flipbook and sample management.
import type postgres from 'postgres';
import { isUniqueViolation, TOOL_ROUTES, type ToolRoute } from '@story/db';
import { AppError } from '@story/http';
import { toIso } from '../../shared/dates';
import { toolsError } from '../../shared/errors';
import { toolTableName } from '../../shared/tool-param';
import { toolDefinition } from '../../tools';
import { toBrowseItem, type ContentRow } from '../browse/browse.service';
import type { GenerateService } from '../generate/generate.service';
import { parseOptions } from '../generate/generate.service';

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

export interface BulkJobView {
  id: string;
  tool: string;
  status: string;
  requestedCount: number;
  completedCount: number;
  failedCount: number;
  progress: number;
  collectionId: string | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

interface BulkRow {
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

const toJobView = (r: BulkRow): BulkJobView => ({
  id: r.id,
  tool: r.tool,
  status: r.status,
  requestedCount: r.requested_count,
  completedCount: r.completed_count,
  failedCount: r.failed_count,
  progress: Math.round(((r.completed_count + r.failed_count) / r.requested_count) * 100),
  collectionId: r.collection_id,
  error: r.error,
  createdAt: toIso(r.created_at),
  startedAt: toIso(r.started_at ?? null),
  completedAt: toIso(r.completed_at ?? null),
});

const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 80) || 'collection';

export interface AdminServiceDeps {
  sql: postgres.Sql;
  generate: GenerateService;
  /** Queue the job that runs a bulk row, in the transaction that inserts the row. */
  queueBulkJob: (bulkJobId: string, tx: postgres.TransactionSql) => Promise<void>;
  /** Wake this process's runner (it would find the job at its next poll anyway). */
  onJobQueued?: () => void;
}

export function createAdminService(deps: AdminServiceDeps) {
  const { sql } = deps;

  const rowColumns = (tool: ToolRoute) => sql`
    t.*, (select count(*)::int from tools_responses r where r.tool = ${tool} and r.prompt_id = t.id and r.deleted_at is null) as response_count,
    case when t.rating_count > 0 then round(t.rating_sum::numeric / t.rating_count, 2)::float8 else 0 end as average_rating`;

  const adminItem = (r: ContentRow) => ({
    ...toBrowseItem(r),
    isReviewed: r.is_reviewed,
    sessionId: r.session_id,
    userId: r.user_id,
    expiresAt: toIso(r.expires_at),
    aiModel: r.ai_model,
    exportCount: r.export_count,
  });

  async function findRow(tool: ToolRoute, id: string): Promise<ContentRow> {
    const [row] = await sql<ContentRow[]>`select ${rowColumns(tool)} from ${sql(toolTableName(tool))} t where t.id = ${id} and t.deleted_at is null`;
    if (!row) throw toolsError.notFound();
    return row;
  }

  async function update(tool: ToolRoute, id: string, set: postgres.PendingQuery<postgres.Row[]>) {
    const [row] = await sql<{ id: string }[]>`update ${sql(toolTableName(tool))} t set ${set}, updated_at = now() where t.id = ${id} and t.deleted_at is null returning t.id`;
    if (!row) throw toolsError.notFound();
    return adminItem(await findRow(tool, id));
  }

  async function queueJob(tool: ToolRoute, requestedBy: string, input: { count: number; options?: Record<string, unknown>; variations?: Record<string, unknown>[]; isPublic?: boolean; isFeatured?: boolean; collectionId?: string }) {
    const def = toolDefinition(tool);
    // Every combination is checked now, so a job never fails item after item on bad options.
    const variations = input.variations?.length ? input.variations : [{}];
    variations.forEach((v) => parseOptions(def.optionsSchema, { ...(input.options ?? {}), ...v }));
    // The row and its job in one transaction: neither exists without the other.
    const row = await sql.begin(async (tx) => {
      const [inserted] = await tx<BulkRow[]>`
        insert into tools_bulk_jobs (tool, requested_by, options, requested_count, collection_id)
        values (${tool}, ${requestedBy}, ${JSON.stringify({ base: input.options ?? {}, variations: input.variations ?? [], isPublic: input.isPublic ?? true, isFeatured: input.isFeatured ?? false })}::jsonb,
                ${input.count}, ${input.collectionId ?? null})
        returning *`;
      await deps.queueBulkJob(inserted!.id, tx);
      return inserted;
    });
    deps.onJobQueued?.();
    return toJobView(row!);
  }

  return {
    async browse(tool: ToolRoute, q: AdminBrowseQuery) {
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
      return { items: rows.map(adminItem), total: count?.total ?? 0 };
    },

    /** Reviewed; approving can publish, rejecting always unpublishes (and unfeatures). */
    review: (tool: ToolRoute, id: string, input: { approved: boolean; isPublic?: boolean; notes?: string }, reviewer: string) => {
      // The decision is kept in metadata, so a later reviewer sees who decided what.
      const review = sql`metadata = metadata || ${JSON.stringify({ review: { approved: input.approved, notes: input.notes ?? null, by: reviewer, at: new Date().toISOString() } })}::jsonb`;
      return update(
        tool,
        id,
        input.approved
          ? sql`is_reviewed = true, ${review} ${input.isPublic === undefined ? sql`` : sql`, is_public = ${input.isPublic}, share_type = ${input.isPublic ? 'public' : 'private'}`}`
          : sql`is_reviewed = true, ${review}, is_public = false, is_featured = false, share_type = 'private'`,
      );
    },

    /** Featured content is shown to everyone: featuring also publishes it and keeps it from expiring. */
    feature: (tool: ToolRoute, id: string, featured: boolean) =>
      update(tool, id, featured ? sql`is_featured = true, is_public = true, is_reviewed = true, share_type = 'public', expires_at = null` : sql`is_featured = false`),

    setExpiration: (tool: ToolRoute, id: string, expiresAt: Date | null) => update(tool, id, sql`expires_at = ${expiresAt ? expiresAt.toISOString() : null}`),

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
      const byType = Object.fromEntries(events.map((e) => [e.event_type, e.n]));
      return {
        tool,
        periodDays: days,
        content: content!,
        events: { generate: byType['generate'] ?? 0, view: byType['view'] ?? 0, share: byType['share'] ?? 0, export: byType['export'] ?? 0, responseCreated: byType['response_created'] ?? 0 },
        generationsByDay: trend.map((d) => ({ date: d.date, count: d.n })),
        aiUsage: { calls: ai!.calls, failures: ai!.failures, tokens: ai!.tokens, costUsd: Math.round(ai!.cost * 10000) / 10000, averageGenerationMs: ai!.avg_ms === null ? null : Math.round(ai!.avg_ms), byModel: Object.fromEntries(models.map((m) => [m.model, m.n])) },
        rateLimitHits: Object.fromEntries(hits.map((h) => [h.scope, h.n])),
        responses: responses!,
      };
    },

    async listCollections(tool: ToolRoute) {
      const rows = await sql<{ id: string; title: string; description: string | null; slug: string; is_featured: boolean; is_published: boolean; seo_title: string | null; seo_description: string | null; keywords: string[] | null; created_at: unknown; updated_at: unknown; item_count: number }[]>`
        select c.*, (select count(*)::int from tools_collection_items i where i.collection_id = c.id) as item_count
        from tools_collections c where c.tool = ${tool} order by c.created_at desc`;
      return rows.map((c) => ({
        id: c.id,
        title: c.title,
        description: c.description,
        slug: c.slug,
        isFeatured: c.is_featured,
        isPublished: c.is_published,
        seoTitle: c.seo_title,
        seoDescription: c.seo_description,
        keywords: c.keywords ?? [],
        itemCount: c.item_count,
        createdAt: toIso(c.created_at),
        updatedAt: toIso(c.updated_at),
      }));
    },

    async createCollection(
      tool: ToolRoute,
      createdBy: string,
      input: { title: string; description?: string; slug?: string; isFeatured?: boolean; isPublished?: boolean; seoTitle?: string; seoDescription?: string; keywords?: string[] },
    ) {
      const slug = input.slug ?? `${slugify(input.title)}`;
      try {
        const [row] = await sql<{ id: string }[]>`
          insert into tools_collections (tool, title, description, slug, is_featured, is_published, seo_title, seo_description, keywords, created_by)
          values (${tool}, ${input.title}, ${input.description ?? null}, ${slug}, ${input.isFeatured ?? false}, ${input.isPublished ?? true},
                  ${input.seoTitle ?? null}, ${input.seoDescription ?? null}, ${input.keywords ?? null}, ${createdBy})
          returning id`;
        return (await this.listCollections(tool)).find((c) => c.id === row!.id)!;
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('conflict', `A collection with slug "${slug}" already exists`, { code: 'INVALID_INPUT', field: 'slug' });
        throw err;
      }
    },

    queueJob,

    async generateIntoCollection(tool: ToolRoute, collectionId: string, requestedBy: string, input: { count: number; options?: Record<string, unknown>; variations?: Record<string, unknown>[] }) {
      const [collection] = await sql`select id from tools_collections where id = ${collectionId} and tool = ${tool}`;
      if (!collection) throw toolsError.notFound('Collection');
      return queueJob(tool, requestedBy, { ...input, collectionId, isPublic: true });
    },

    async job(tool: ToolRoute, jobId: string) {
      const [row] = await sql<BulkRow[]>`select * from tools_bulk_jobs where id = ${jobId} and tool = ${tool}`;
      if (!row) throw toolsError.notFound('Bulk job');
      return toJobView(row);
    },

    async listJobs(tool: ToolRoute) {
      return (await sql<BulkRow[]>`select * from tools_bulk_jobs where tool = ${tool} order by created_at desc limit 50`).map(toJobView);
    },

    /** Flipbooks with their page counts and file sizes (admin /api/admin/flipbooks). */
    async flipbooks(page: number, limit: number) {
      const rows = await sql<{ id: string; share_code: string; title: string | null; is_public: boolean; page_count: number; metadata: Record<string, unknown>; created_at: unknown; expires_at: unknown }[]>`
        select f.id, f.share_code, f.title, f.is_public, f.metadata, f.created_at, f.expires_at,
               (select count(*)::int from tools_flipbook_pages p where p.flipbook_id = f.id) as page_count
        from tools_flipbooks f where f.deleted_at is null order by f.created_at desc limit ${limit} offset ${(page - 1) * limit}`;
      return rows.map((r) => ({
        id: r.id,
        shareCode: r.share_code,
        title: r.title ?? '',
        isPublic: r.is_public,
        source: typeof r.metadata['pdfKey'] === 'string' ? 'pdf' : 'text',
        pageCount: r.page_count,
        fileSize: typeof r.metadata['fileSize'] === 'number' ? r.metadata['fileSize'] : null,
        createdAt: toIso(r.created_at),
        expiresAt: toIso(r.expires_at ?? null),
      }));
    },

    /** Remove a flipbook now: the row is set to expire immediately, so the purge deletes it and its file. */
    async removeFlipbook(id: string) {
      const [row] = await sql`update tools_flipbooks set deleted_at = now(), expires_at = now(), is_public = false where id = ${id} and deleted_at is null returning id`;
      if (!row) throw toolsError.notFound('Flipbook');
    },

    /** One public, featured, reviewed, non-expiring sample per tool, for landing pages. */
    async generateSamples(tools: readonly ToolRoute[], admin: { userId: string }, sampleOptions: Partial<Record<ToolRoute, Record<string, unknown>>>) {
      const out: { tool: ToolRoute; id: string; shareCode: string; title: string }[] = [];
      for (const tool of tools) {
        const options = parseOptions(toolDefinition(tool).optionsSchema, sampleOptions[tool] ?? {});
        const produced = await deps.generate.produce(tool, options, admin.userId);
        const r = await deps.generate.store(tool, options, produced, { sessionId: 'admin-samples', userId: admin.userId, ipPrefix: 'admin', userAgent: 'samples' }, { origin: 'sample', isPublic: true, isFeatured: true, isReviewed: true, expiresAt: null });
        out.push({ tool, id: r.id, shareCode: r.shareCode, title: r.title });
      }
      return out;
    },

    async samples() {
      const out: { tool: ToolRoute; id: string; shareCode: string; title: string; createdAt: string }[] = [];
      for (const tool of TOOL_ROUTES) {
        const rows = await sql<{ id: string; share_code: string; title: string | null; created_at: unknown }[]>`
          select id, share_code, title, created_at from ${sql(toolTableName(tool))}
          where metadata->>'origin' = 'sample' and deleted_at is null order by created_at desc limit 3`;
        out.push(...rows.map((r) => ({ tool, id: r.id, shareCode: r.share_code, title: r.title ?? '', createdAt: toIso(r.created_at) })));
      }
      return out;
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
