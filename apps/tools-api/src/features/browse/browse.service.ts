// Browse (GET /api/{tool}, /api/{tool}/browse) and one item (GET /api/{tool}/{id or share code}). Who sees
// what is shared/visibility.ts: lists show listed content plus the caller's own; one item by id is the
// 'direct' path, by share code the 'link' path (the code opens an unlisted item). The SQL is in
// browse.repository.ts.
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import { isUuid } from '@story/http';
import type { ToolsCaller } from '../../shared/caller';
import { toIso } from '../../shared/dates';
import { toolsError } from '../../shared/errors';
import { canSee, ownsContent } from '../../shared/visibility';
import { createBrowseRepository } from './browse.repository';
import type { BrowseQuery, ContentRow } from './browse.types';

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
    isOwner: ownsContent(r, caller),
    shareType: r.share_type,
    expiresAt: toIso(r.expires_at),
    seoMetadata: { title: r.seo_title ?? '', description: r.seo_description ?? '', keywords: r.keywords ?? [] },
    aiMetadata: { model: r.ai_model, tokensUsed: r.ai_tokens_used, processingTime: r.generation_time_ms, confidenceScore: r.ai_confidence === null ? null : Number(r.ai_confidence), isAiGenerated: r.is_ai_generated },
    generationOptions: r.generation_options ?? {},
  };
}

export function createBrowseService({ sql }: { sql: postgres.Sql }) {
  const repo = createBrowseRepository(sql);

  return {
    async browse(tool: ToolRoute, q: BrowseQuery): Promise<{ items: BrowseItem[]; total: number; hasNext: boolean }> {
      const offset = (q.page - 1) * q.limit;
      const { rows, total } = await repo.list(tool, q, offset);
      return { items: rows.slice(0, q.limit).map(toBrowseItem), total, hasNext: rows.length > q.limit };
    },

    /** One live row by id or share code, without access checks (pages and admin decide). */
    find: (tool: ToolRoute, idOrShareCode: string): Promise<ContentRow | null> => repo.find(tool, idOrShareCode),

    /** Whether the caller may see this row (shared/visibility.ts); someone else's private id is a 404. */
    canView(row: ContentRow, via: 'id' | 'shareCode', caller: ToolsCaller | null): boolean {
      return canSee(row, caller, via === 'shareCode' ? 'link' : 'direct');
    },

    /** GET one: visibility, then the view is counted and recorded as an analytics event. */
    async view(tool: ToolRoute, idOrShareCode: string, caller: ToolsCaller | null, source: 'api' | 'page' | 'embed' = 'api'): Promise<ContentDetail> {
      const row = await this.find(tool, idOrShareCode);
      if (!row || !this.canView(row, isUuid(idOrShareCode) ? 'id' : 'shareCode', caller)) throw toolsError.notFound();
      const viewCount = await repo.countView(tool, row.id, { source, userId: caller?.userId ?? null, sessionId: caller?.sessionId || null, ipPrefix: caller?.ipPrefix ?? null, userAgent: caller?.userAgent ?? null });
      return toDetail(tool, { ...row, view_count: viewCount ?? row.view_count + 1 }, caller);
    },
  };
}

export type BrowseService = ReturnType<typeof createBrowseService>;
