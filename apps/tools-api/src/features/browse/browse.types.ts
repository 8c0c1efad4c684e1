// The shapes browse's service and repository share (and the admin routes, which list the same rows):
// the query of a listing (spec 002 Endpoints: GET /api/{tool}) and a content row as the queries select it.

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
