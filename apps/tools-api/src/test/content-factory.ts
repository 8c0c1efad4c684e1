// Test factories for T-B's features (responses, share, analytics, export, search): content rows and
// responses inserted straight into the tables, returned as stored. Session ids follow CONTRACTS §6.
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { TOOL_TABLES, type ToolRoute } from '@story/db';
import { getTableName } from 'drizzle-orm';

let counter = 0;

/** A fresh, well-formed X-Session-ID value. */
export const newSession = (): string => `sess_${Date.now()}_${randomBytes(6).toString('hex')}`;

export interface ContentOverrides {
  sessionId?: string;
  userId?: string | null;
  title?: string;
  content?: Record<string, unknown>;
  isPublic?: boolean;
  isFeatured?: boolean;
  shareType?: 'public' | 'private' | 'expiring';
  shareExpiresAt?: Date | null;
  expiresAt?: Date | null;
  deletedAt?: Date | null;
  createdAt?: Date;
  seoDescription?: string;
  keywords?: string[];
  viewCount?: number;
  shareCount?: number;
  category?: string | null;
}

export interface ContentRecord {
  id: string;
  tool: ToolRoute;
  share_code: string;
  session_id: string;
  user_id: string | null;
  title: string;
  is_public: boolean;
  created_at: string;
}

export async function newContent(sql: postgres.Sql, tool: ToolRoute, o: ContentOverrides = {}): Promise<ContentRecord> {
  counter += 1;
  const title = o.title ?? `Sample ${tool} ${counter}`;
  const content = o.content ?? { title, prompt: `A lighthouse keeper finds a letter addressed to herself, number ${counter}.` };
  const isPublic = o.isPublic ?? o.shareType !== 'private';
  const table = sql(getTableName(TOOL_TABLES[tool]));
  const [row] = await sql<ContentRecord[]>`
    insert into ${table} (share_code, session_id, user_id, title, content, is_public, is_featured, share_type, share_expires_at, expires_at,
                          deleted_at, created_at, updated_at, seo_title, seo_description, keywords, ai_model, ai_tokens_used, generation_time_ms,
                          view_count, share_count, category, generation_options)
    values (${`${tool.slice(0, 2)}_${randomBytes(5).toString('hex')}`}, ${o.sessionId ?? newSession()}, ${o.userId ?? null}, ${title}, ${JSON.stringify(content)}::jsonb,
            ${isPublic}, ${o.isFeatured ?? false}, ${o.shareType ?? (isPublic ? 'public' : 'private')}, ${o.shareExpiresAt?.toISOString() ?? null}, ${o.expiresAt?.toISOString() ?? null},
            ${o.deletedAt?.toISOString() ?? null}, ${(o.createdAt ?? new Date()).toISOString()}, ${(o.createdAt ?? new Date()).toISOString()}, ${`${title} | Free writing tool`},
            ${o.seoDescription ?? `${title}: a generated sample used in tests.`}, ${o.keywords ?? ['writing', tool]}, ${'local-' + tool}, ${0}, ${5},
            ${o.viewCount ?? 0}, ${o.shareCount ?? 0}, ${o.category ?? null}, '{}'::jsonb)
    returning id, share_code, session_id, user_id, title, is_public, created_at`;
  return { ...row!, tool };
}

export interface ResponseOverrides {
  sessionId?: string;
  userId?: string | null;
  title?: string;
  content?: string;
  isPublic?: boolean;
  moderationStatus?: 'pending' | 'approved' | 'rejected';
  deletedAt?: Date | null;
  createdAt?: Date;
}

export async function newResponse(sql: postgres.Sql, parent: Pick<ContentRecord, 'id' | 'tool'>, o: ResponseOverrides = {}) {
  counter += 1;
  const content = o.content ?? `The keeper read the letter twice before the lamp went out. Response ${counter}.`;
  const words = content.split(/\s+/).filter(Boolean).length;
  const [row] = await sql<{ id: string; session_id: string; title: string }[]>`
    insert into tools_responses (tool, prompt_id, session_id, user_id, title, content, word_count, character_count, is_public, moderation_status, deleted_at, created_at, updated_at)
    values (${parent.tool}, ${parent.id}, ${o.sessionId ?? newSession()}, ${o.userId ?? null}, ${o.title ?? `Response ${counter}`}, ${content}, ${words}, ${[...content].length},
            ${o.isPublic ?? false}, ${o.moderationStatus ?? 'pending'}, ${o.deletedAt?.toISOString() ?? null}, ${(o.createdAt ?? new Date()).toISOString()}, ${(o.createdAt ?? new Date()).toISOString()})
    returning id, session_id, title`;
  return row!;
}
