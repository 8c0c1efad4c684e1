// Responses visitors write to generated content (spec 002 "Response record"), plus the story-prompt
// extras: analyze-response, saved prompts and published collections. A response is visible when it is
// public and not rejected by moderation, or to its owner (session or account); only the owner edits.
import type postgres from 'postgres';
import { one, type ToolRoute } from '@story/db';
import { consumeCounters } from '@story/http';
import type { ToolsCaller } from '../../shared/caller';
import type { RateLimitMeta } from '../../shared/envelope';
import { toolsError } from '../../shared/errors';
import { recordLimitHit, responseChecks } from '../../shared/limits';
import { canSeeContent, findLiveContent } from '../share/content-access';
import { toIso } from '../../shared/dates';
import { jsonb } from './pg-values';
import { isUuid } from './query-params';
import { analyzeResponse, countCharacters, countWords, promptElementsOf, type ResponseAnalysis } from './responses.analysis';

export interface ResponseView {
  id: string;
  tool: ToolRoute;
  promptId: string;
  title: string;
  content: string;
  wordCount: number;
  characterCount: number;
  isPublic: boolean;
  moderationStatus: string;
  viewCount: number;
  likeCount: number;
  shareCount: number;
  qualityScore: number | null;
  isOwner: boolean;
  createdAt: string;
  updatedAt: string;
}

interface ResponseRow {
  id: string;
  tool: ToolRoute;
  prompt_id: string;
  session_id: string;
  user_id: string | null;
  title: string;
  content: string;
  word_count: number;
  character_count: number;
  is_public: boolean;
  moderation_status: string;
  view_count: number;
  like_count: number;
  share_count: number;
  quality_score: string | number | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, tool, prompt_id, session_id, user_id, title, content, word_count, character_count, is_public, moderation_status, view_count, like_count, share_count, quality_score, created_at, updated_at';

type Caller = Pick<ToolsCaller, 'sessionId' | 'userId'>;

const ownsResponse = (row: Pick<ResponseRow, 'session_id' | 'user_id'>, caller: Caller) =>
  (caller.sessionId !== '' && row.session_id === caller.sessionId) || (caller.userId !== null && row.user_id === caller.userId);

const toView = (r: ResponseRow, caller: Caller): ResponseView => ({
  id: r.id,
  tool: r.tool,
  promptId: r.prompt_id,
  title: r.title,
  content: r.content,
  wordCount: r.word_count,
  characterCount: r.character_count,
  isPublic: r.is_public,
  moderationStatus: r.moderation_status,
  viewCount: r.view_count,
  likeCount: r.like_count,
  shareCount: r.share_count,
  qualityScore: r.quality_score === null ? null : Number(r.quality_score),
  isOwner: ownsResponse(r, caller),
  createdAt: toIso(r.created_at),
  updatedAt: toIso(r.updated_at),
});

export interface CreateResponseInput {
  sessionId?: string;
  title: string;
  content: string;
  isPublic: boolean;
}

export interface UpdateResponseInput {
  sessionId: string;
  title?: string;
  content?: string;
  isPublic?: boolean;
}

export interface ListResponsesInput {
  page: number;
  limit: number;
  /** true: public only; false: the caller's own private ones; undefined: public plus own. */
  isPublic?: boolean;
}

export interface SavedPromptView {
  id: string;
  promptId: string;
  shareCode: string;
  title: string;
  prompt: string | null;
  notes: string | null;
  savedAt: string;
}

export interface CollectionView {
  id: string;
  title: string;
  description: string | null;
  slug: string;
  isFeatured: boolean;
  seoTitle: string | null;
  seoDescription: string | null;
  keywords: string[];
  itemCount: number;
  prompts: { id: string; shareCode: string; title: string; prompt: string | null; position: number }[];
  createdAt: string;
  updatedAt: string;
}

interface CollectionRow {
  id: string;
  title: string;
  description: string | null;
  slug: string;
  is_featured: boolean;
  seo_title: string | null;
  seo_description: string | null;
  keywords: string[] | null;
  item_count: number;
  prompts: CollectionView['prompts'];
  created_at: string;
  updated_at: string;
}

const toCollection = (r: CollectionRow): CollectionView => ({
  id: r.id,
  title: r.title,
  description: r.description,
  slug: r.slug,
  isFeatured: r.is_featured,
  seoTitle: r.seo_title,
  seoDescription: r.seo_description,
  keywords: r.keywords ?? [],
  itemCount: r.item_count,
  prompts: r.prompts,
  createdAt: toIso(r.created_at),
  updatedAt: toIso(r.updated_at),
});

export function createResponsesService({ sql, limitScale = 1 }: { sql: postgres.Sql; limitScale?: number }) {
  /** The caller must present their own session id when the body carries one (spec: ownership by body sessionId). */
  const assertOwnSession = (bodySessionId: string | undefined, caller: ToolsCaller) => {
    if (bodySessionId !== undefined && bodySessionId !== caller.sessionId) throw toolsError.accessDenied('sessionId does not match X-Session-ID');
  };

  const visibleParent = async (tool: ToolRoute, idOrShareCode: string, caller: ToolsCaller) => {
    const parent = await findLiveContent(sql, tool, idOrShareCode);
    if (!parent || !canSeeContent(parent, caller)) throw toolsError.parentNotFound();
    return parent;
  };

  /** Prompts shown in a public collection: live, public, and not behind an expired link. */
  const publicPrompt = sql`p.deleted_at is null and (p.expires_at is null or p.expires_at > now()) and p.is_public and (p.share_type <> 'expiring' or p.share_expires_at > now())`;

  const parentAlive = async (tool: ToolRoute, id: string) => (await findLiveContent(sql, tool, id)) !== null;

  const findResponse = async (tool: ToolRoute, id: string): Promise<ResponseRow | null> => {
    if (!isUuid(id)) return null;
    const [row] = await sql<ResponseRow[]>`select ${sql.unsafe(COLUMNS)} from tools_responses where id = ${id} and tool = ${tool} and deleted_at is null`;
    return row ?? null;
  };

  const visibility = (caller: Caller, isPublic?: boolean) => {
    const own = sql`(${caller.sessionId ? sql`session_id = ${caller.sessionId}` : sql`false`} or ${caller.userId ? sql`user_id = ${caller.userId}` : sql`false`})`;
    const listed = sql`(is_public and moderation_status <> 'rejected')`;
    return isPublic === true ? listed : isPublic === false ? sql`(${own} and not is_public)` : sql`(${listed} or ${own})`;
  };

  return {
    async create(tool: ToolRoute, promptId: string, input: CreateResponseInput, caller: ToolsCaller): Promise<{ response: ResponseView; rateLimit: RateLimitMeta }> {
      assertOwnSession(input.sessionId, caller);
      const parent = await visibleParent(tool, promptId, caller);
      const limits = await consumeCounters(sql, responseChecks(tool, caller), { scale: limitScale, onRefused: recordLimitHit(sql, caller) });
      try {
        const row = await sql.begin(async (tx) => {
          const inserted = one(
            await tx<ResponseRow[]>`
            insert into tools_responses (tool, prompt_id, session_id, user_id, title, content, word_count, character_count, is_public)
            values (${tool}, ${parent.id}, ${caller.sessionId}, ${caller.userId}, ${input.title}, ${input.content}, ${countWords(input.content)}, ${countCharacters(input.content)}, ${input.isPublic})
            returning ${sql.unsafe(COLUMNS)}`,
          );
          await tx`
            insert into tools_analytics (tool, content_id, event_type, event_data, user_id, session_id, ip_address, user_agent)
            values (${tool}, ${parent.id}, 'response_created', ${jsonb({ responseId: inserted.id, wordCount: inserted.word_count, isPublic: inserted.is_public })}::jsonb,
                    ${caller.userId}, ${caller.sessionId}, ${caller.ipPrefix || null}, ${caller.userAgent})`;
          return inserted;
        });
        return { response: toView(row, caller), rateLimit: limits.rateLimit };
      } catch (err) {
        await limits.refund();
        throw toolsError.saveFailed(err);
      }
    },

    async list(tool: ToolRoute, promptId: string, input: ListResponsesInput, caller: ToolsCaller): Promise<{ items: ResponseView[]; total: number }> {
      const parent = await visibleParent(tool, promptId, caller);
      const where = sql`tool = ${tool} and prompt_id = ${parent.id} and deleted_at is null and ${visibility(caller, input.isPublic)}`;
      const [rows, [counted]] = await Promise.all([
        sql<ResponseRow[]>`select ${sql.unsafe(COLUMNS)} from tools_responses where ${where} order by created_at desc, id desc limit ${input.limit} offset ${(input.page - 1) * input.limit}`,
        sql<{ n: number }[]>`select count(*)::int as n from tools_responses where ${where}`,
      ]);
      return { items: rows.map((r) => toView(r, caller)), total: counted?.n ?? 0 };
    },

    /** One response; a reader other than the owner counts as a view. */
    async get(tool: ToolRoute, id: string, caller: ToolsCaller): Promise<ResponseView> {
      const row = await findResponse(tool, id);
      const owner = row ? ownsResponse(row, caller) : false;
      if (!row || (!owner && !(row.is_public && row.moderation_status !== 'rejected'))) throw toolsError.notFound('Response');
      if (!(await parentAlive(tool, row.prompt_id))) throw toolsError.parentNotFound();
      if (owner) return toView(row, caller);
      const [counted] = await sql<{ view_count: number }[]>`update tools_responses set view_count = view_count + 1 where id = ${row.id} returning view_count`;
      return toView({ ...row, view_count: counted?.view_count ?? row.view_count + 1 }, caller);
    },

    async update(tool: ToolRoute, id: string, input: UpdateResponseInput, caller: ToolsCaller): Promise<ResponseView> {
      if (input.title === undefined && input.content === undefined && input.isPublic === undefined) {
        throw toolsError.invalidInput('title', 'Send at least one of title, content or isPublic');
      }
      const row = await findResponse(tool, id);
      if (!row) throw toolsError.notFound('Response');
      // The body's sessionId must be the caller's own and the response's (spec: ownership by sessionId); an account owns its responses too.
      const bySession = input.sessionId === caller.sessionId && row.session_id === input.sessionId;
      const byAccount = caller.userId !== null && row.user_id === caller.userId;
      if (!bySession && !byAccount) throw toolsError.accessDenied('Only the session that wrote this response can change it');
      if (!(await parentAlive(tool, row.prompt_id))) throw toolsError.parentNotFound();
      const content = input.content;
      // Changed text goes back to moderation and loses its old quality score.
      const [updated] = await sql<ResponseRow[]>`
        update tools_responses set
          title = coalesce(${input.title ?? null}, title),
          is_public = coalesce(${input.isPublic ?? null}, is_public),
          ${
            content !== undefined
              ? sql`content = ${content}, word_count = ${countWords(content)}, character_count = ${countCharacters(content)},
                    moderation_status = case when content = ${content} then moderation_status else 'pending' end,
                    quality_score = case when content = ${content} then quality_score else null end,`
              : sql``
          }
          updated_at = now()
        where id = ${row.id} and deleted_at is null
        returning ${sql.unsafe(COLUMNS)}`;
      if (!updated) throw toolsError.notFound('Response');
      return toView(updated, caller);
    },

    async remove(tool: ToolRoute, id: string, input: { sessionId?: string; reason?: string }, caller: ToolsCaller): Promise<{ id: string; deleted: true; deletedAt: string }> {
      const sessionId = input.sessionId ?? caller.sessionId;
      const row = await findResponse(tool, id);
      if (!row) throw toolsError.notFound('Response');
      const bySession = sessionId === caller.sessionId && row.session_id === sessionId;
      const byAccount = caller.userId !== null && row.user_id === caller.userId;
      if (!bySession && !byAccount) throw toolsError.accessDenied('Only the session that wrote this response can delete it');
      const [deleted] = await sql<{ deleted_at: string }[]>`
        update tools_responses set deleted_at = now(), delete_reason = ${input.reason ?? null}, updated_at = now()
        where id = ${row.id} and deleted_at is null returning deleted_at`;
      if (!deleted) throw toolsError.notFound('Response');
      return { id: row.id, deleted: true, deletedAt: toIso(deleted.deleted_at) };
    },

    /**
     * Analyse a text against a story prompt. With responseId the text is that response's; its owner
     * also gets the quality score stored on it.
     */
    async analyze(
      input: { promptId?: string; responseId?: string; content?: string; sessionId?: string },
      caller: ToolsCaller,
    ): Promise<ResponseAnalysis & { promptId: string | null; responseId: string | null; stored: boolean }> {
      assertOwnSession(input.sessionId, caller);
      const tool: ToolRoute = 'story-prompts';
      let text = input.content;
      let promptId = input.promptId ?? null;
      let response: ResponseRow | null = null;
      if (input.responseId) {
        response = await findResponse(tool, input.responseId);
        if (!response || (!ownsResponse(response, caller) && !(response.is_public && response.moderation_status !== 'rejected'))) throw toolsError.notFound('Response');
        text = response.content;
        promptId = response.prompt_id;
      }
      if (text === undefined) throw toolsError.invalidInput('content', 'Send content (the text to analyse) or a responseId');
      let elements: ReturnType<typeof promptElementsOf> = [];
      let wordCountTarget: number | null = null;
      if (promptId) {
        const prompt = await visibleParent(tool, promptId, caller);
        promptId = prompt.id;
        elements = promptElementsOf(prompt.content);
        const target = prompt.content['wordCountTarget'];
        wordCountTarget = typeof target === 'number' ? target : null;
      }
      const analysis = analyzeResponse(text, { elements, wordCountTarget });
      let stored = false;
      if (response && ownsResponse(response, caller)) {
        await sql`update tools_responses set quality_score = ${analysis.qualityScore} where id = ${response.id}`;
        stored = true;
      }
      return { ...analysis, promptId, responseId: response?.id ?? null, stored };
    },

    /** Save a story prompt for later; saving it again keeps one row (and updates the notes when sent). */
    async savePrompt(input: { promptId: string; sessionId?: string; notes?: string }, caller: ToolsCaller): Promise<{ saved: SavedPromptView; created: boolean }> {
      assertOwnSession(input.sessionId, caller);
      const tool: ToolRoute = 'story-prompts';
      const prompt = await findLiveContent(sql, tool, input.promptId);
      if (!prompt || !canSeeContent(prompt, caller)) throw toolsError.notFound('Story prompt');
      const row = one(
        await sql<{ id: string; notes: string | null; created_at: string; inserted: boolean }[]>`
        insert into tools_saved_prompts (tool, content_id, session_id, user_id, notes)
        values (${tool}, ${prompt.id}, ${caller.sessionId}, ${caller.userId}, ${input.notes ?? null})
        on conflict (session_id, tool, content_id) do update
          set notes = coalesce(excluded.notes, tools_saved_prompts.notes), user_id = coalesce(excluded.user_id, tools_saved_prompts.user_id)
        returning id, notes, created_at, (xmax = 0) as inserted`,
      );
      return {
        created: row.inserted,
        saved: {
          id: row.id,
          promptId: prompt.id,
          shareCode: prompt.share_code,
          title: prompt.title ?? '',
          prompt: typeof prompt.content['prompt'] === 'string' ? prompt.content['prompt'] : null,
          notes: row.notes,
          savedAt: toIso(row.created_at),
        },
      };
    },

    async unsavePrompt(promptId: string, caller: ToolsCaller): Promise<boolean> {
      if (!isUuid(promptId)) return false;
      const rows = await sql`
        delete from tools_saved_prompts where tool = 'story-prompts' and content_id = ${promptId}
          and (session_id = ${caller.sessionId} ${caller.userId ? sql`or user_id = ${caller.userId}` : sql``}) returning id`;
      return rows.length > 0;
    },

    /** The session's (and account's) saved prompts that still exist, newest first. */
    async savedPrompts(caller: ToolsCaller, page: number, limit: number): Promise<{ items: SavedPromptView[]; total: number }> {
      const where = sql`s.tool = 'story-prompts' and (s.session_id = ${caller.sessionId} ${caller.userId ? sql`or s.user_id = ${caller.userId}` : sql``})
        and p.deleted_at is null and (p.expires_at is null or p.expires_at > now())`;
      const [rows, [counted]] = await Promise.all([
        sql<{ id: string; content_id: string; share_code: string; title: string | null; prompt: string | null; notes: string | null; created_at: string }[]>`
          select s.id, s.content_id, p.share_code, p.title, p.content->>'prompt' as prompt, s.notes, s.created_at
          from tools_saved_prompts s join tools_story_prompts p on p.id = s.content_id
          where ${where} order by s.created_at desc, s.id limit ${limit} offset ${(page - 1) * limit}`,
        sql<{ n: number }[]>`select count(*)::int as n from tools_saved_prompts s join tools_story_prompts p on p.id = s.content_id where ${where}`,
      ]);
      return {
        items: rows.map((r) => ({ id: r.id, promptId: r.content_id, shareCode: r.share_code, title: r.title ?? '', prompt: r.prompt, notes: r.notes, savedAt: toIso(r.created_at) })),
        total: counted?.n ?? 0,
      };
    },

    /** Published story-prompt collections, featured first, each with its first prompts (public, live ones only). */
    async collections(page: number, limit: number, previewSize = 5): Promise<{ items: CollectionView[]; total: number }> {
      const [rows, [counted]] = await Promise.all([
        sql<CollectionRow[]>`
          select c.*, coalesce(items.list, '[]'::jsonb) as prompts, coalesce(items.n, 0)::int as item_count
          from tools_collections c
          left join lateral (
            select count(*) as n, (jsonb_agg(x.item order by x.position, x.created_at) filter (where x.rn <= ${previewSize})) as list
            from (select jsonb_build_object('id', p.id, 'shareCode', p.share_code, 'title', coalesce(p.title, ''), 'prompt', p.content->>'prompt', 'position', i.position) as item,
                         i.position, p.created_at, row_number() over (order by i.position, p.created_at) as rn
                  from tools_collection_items i join tools_story_prompts p on p.id = i.content_id and i.tool = 'story-prompts'
                  where i.collection_id = c.id and ${publicPrompt}) x
          ) items on true
          where c.tool = 'story-prompts' and c.is_published
          order by c.is_featured desc, c.created_at desc, c.id
          limit ${limit} offset ${(page - 1) * limit}`,
        sql<{ n: number }[]>`select count(*)::int as n from tools_collections where tool = 'story-prompts' and is_published`,
      ]);
      return { items: rows.map(toCollection), total: counted?.n ?? 0 };
    },

    async collection(slug: string): Promise<CollectionView> {
      const [row] = await sql<CollectionRow[]>`
        select c.*, coalesce(items.list, '[]'::jsonb) as prompts, coalesce(items.n, 0)::int as item_count
        from tools_collections c
        left join lateral (
          select count(*) as n, jsonb_agg(x.item order by x.position, x.created_at) as list
          from (select jsonb_build_object('id', p.id, 'shareCode', p.share_code, 'title', coalesce(p.title, ''), 'prompt', p.content->>'prompt', 'position', i.position) as item,
                       i.position, p.created_at
                from tools_collection_items i join tools_story_prompts p on p.id = i.content_id and i.tool = 'story-prompts'
                where i.collection_id = c.id and ${publicPrompt}
                order by i.position, p.created_at limit 500) x
        ) items on true
        where c.slug = ${slug} and c.tool = 'story-prompts' and c.is_published`;
      if (!row) throw toolsError.notFound('Collection');
      return toCollection(row);
    },
  };

}

export type ResponsesService = ReturnType<typeof createResponsesService>;
