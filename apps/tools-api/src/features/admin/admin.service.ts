// Admin operations per tool (spec 002 framework admin pattern): browse everything, review, feature, set the
// expiry, analytics, collections, bulk-generation jobs; plus flipbook and sample management. The SQL is in
// admin.repository.ts.
import type postgres from 'postgres';
import { isUniqueViolation, type ToolRoute } from '@story/db';
import { AppError } from '@story/http';
import { toIso } from '../../shared/dates';
import { toolsError } from '../../shared/errors';
import { toolDefinition } from '../../tools';
import { toBrowseItem } from '../browse/browse.service';
import type { ContentRow } from '../browse/browse.types';
import type { GenerateService } from '../generate/generate.service';
import { parseOptions } from '../generate/generate.service';
import { createAdminRepository, type AdminBrowseQuery, type AdminChange, type BulkRow } from './admin.repository';

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
  const repo = createAdminRepository(sql);

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
    const row = await repo.findRow(tool, id);
    if (!row) throw toolsError.notFound();
    return row;
  }

  async function update(tool: ToolRoute, id: string, change: AdminChange) {
    if (!(await repo.change(tool, id, change))) throw toolsError.notFound();
    return adminItem(await findRow(tool, id));
  }

  async function queueJob(tool: ToolRoute, requestedBy: string, input: { count: number; options?: Record<string, unknown>; variations?: Record<string, unknown>[]; isPublic?: boolean; isFeatured?: boolean; collectionId?: string }) {
    const def = toolDefinition(tool);
    // Every combination is checked now, so a job never fails item after item on bad options.
    const variations = input.variations?.length ? input.variations : [{}];
    variations.forEach((v) => parseOptions(def.optionsSchema, { ...(input.options ?? {}), ...v }));
    // The row and its job in one transaction: neither exists without the other.
    const row = await sql.begin(async (tx) => {
      const options = { base: input.options ?? {}, variations: input.variations ?? [], isPublic: input.isPublic ?? true, isFeatured: input.isFeatured ?? false };
      const inserted = await repo.insertBulkJob(tool, requestedBy, options, input.count, input.collectionId ?? null, tx);
      await deps.queueBulkJob(inserted.id, tx);
      return inserted;
    });
    deps.onJobQueued?.();
    return toJobView(row);
  }

  return {
    async browse(tool: ToolRoute, q: AdminBrowseQuery) {
      const { rows, total } = await repo.browse(tool, q);
      return { items: rows.map(adminItem), total };
    },

    /** Reviewed; approving can publish, rejecting always unpublishes (and unfeatures). */
    review: (tool: ToolRoute, id: string, input: { approved: boolean; isPublic?: boolean; notes?: string }, reviewer: string) =>
      // The decision is kept in metadata, so a later reviewer sees who decided what.
      update(tool, id, { kind: 'review', approved: input.approved, isPublic: input.isPublic, decision: { approved: input.approved, notes: input.notes ?? null, by: reviewer, at: new Date().toISOString() } }),

    /** Featured content is shown to everyone: featuring also publishes it and keeps it from expiring. */
    feature: (tool: ToolRoute, id: string, featured: boolean) => update(tool, id, { kind: 'feature', featured }),

    setExpiration: (tool: ToolRoute, id: string, expiresAt: Date | null) => update(tool, id, { kind: 'expiry', expiresAt }),

    async analytics(tool: ToolRoute, days: number) {
      const { content, events, trend, ai, models, hits, responses } = await repo.analytics(tool, days);
      const byType = Object.fromEntries(events.map((e) => [e.event_type, e.n]));
      return {
        tool,
        periodDays: days,
        content,
        events: { generate: byType['generate'] ?? 0, view: byType['view'] ?? 0, share: byType['share'] ?? 0, export: byType['export'] ?? 0, responseCreated: byType['response_created'] ?? 0 },
        generationsByDay: trend.map((d) => ({ date: d.date, count: d.n })),
        aiUsage: { calls: ai.calls, failures: ai.failures, tokens: ai.tokens, costUsd: Math.round(ai.cost * 10000) / 10000, averageGenerationMs: ai.avg_ms === null ? null : Math.round(ai.avg_ms), byModel: Object.fromEntries(models.map((m) => [m.model, m.n])) },
        rateLimitHits: Object.fromEntries(hits.map((h) => [h.scope, h.n])),
        responses,
      };
    },

    async listCollections(tool: ToolRoute) {
      const rows = await repo.listCollections(tool);
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
        const id = await repo.insertCollection(tool, {
          title: input.title,
          description: input.description ?? null,
          slug,
          isFeatured: input.isFeatured ?? false,
          isPublished: input.isPublished ?? true,
          seoTitle: input.seoTitle ?? null,
          seoDescription: input.seoDescription ?? null,
          keywords: input.keywords ?? null,
          createdBy,
        });
        return (await this.listCollections(tool)).find((c) => c.id === id)!;
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('conflict', `A collection with slug "${slug}" already exists`, { code: 'INVALID_INPUT', field: 'slug' });
        throw err;
      }
    },

    queueJob,

    async generateIntoCollection(tool: ToolRoute, collectionId: string, requestedBy: string, input: { count: number; options?: Record<string, unknown>; variations?: Record<string, unknown>[] }) {
      if (!(await repo.collectionExists(tool, collectionId))) throw toolsError.notFound('Collection');
      return queueJob(tool, requestedBy, { ...input, collectionId, isPublic: true });
    },

    async job(tool: ToolRoute, jobId: string) {
      const row = await repo.findJob(tool, jobId);
      if (!row) throw toolsError.notFound('Bulk job');
      return toJobView(row);
    },

    async listJobs(tool: ToolRoute) {
      return (await repo.listJobs(tool)).map(toJobView);
    },

    /** Flipbooks with their page counts and file sizes (admin /api/admin/flipbooks). */
    async flipbooks(page: number, limit: number) {
      const rows = await repo.listFlipbooks(limit, (page - 1) * limit);
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
      if (!(await repo.removeFlipbook(id))) throw toolsError.notFound('Flipbook');
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
      return (await repo.samples()).map((r) => ({ tool: r.tool, id: r.id, shareCode: r.share_code, title: r.title ?? '', createdAt: toIso(r.created_at) }));
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
