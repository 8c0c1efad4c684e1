// Responses visitors write to generated content (spec 002 "Response record"), plus the story-prompt
// analyze-response. Who sees a response is shared/visibility.ts (public and not rejected, or its owner);
// only the owner edits. Saved prompts and collections: prompt-library.service.ts. SQL: responses.repository.ts.
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import { consumeCounters, isUuid } from '@story/http';
import type { ToolsCaller } from '../../shared/caller';
import type { RateLimitMeta } from '../../shared/envelope';
import { toolsError } from '../../shared/errors';
import { recordLimitHit, responseChecks } from '../../shared/limits';
import { canSee, canSeeResponse, ownsContent } from '../../shared/visibility';
import { findLiveContent } from '../../shared/content.repository';
import { toIso } from '../../shared/dates';
import { createResponsesRepository, type ResponseRow } from './responses.repository';
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

type Caller = Pick<ToolsCaller, 'sessionId' | 'userId'>;

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
  isOwner: ownsContent(r, caller),
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

export function createResponsesService({ sql, limitScale = 1 }: { sql: postgres.Sql; limitScale?: number }) {
  /** The caller must present their own session id when the body carries one (spec: ownership by body sessionId). */
  const assertOwnSession = (bodySessionId: string | undefined, caller: ToolsCaller) => {
    if (bodySessionId !== undefined && bodySessionId !== caller.sessionId) throw toolsError.accessDenied('sessionId does not match X-Session-ID');
  };

  const repo = createResponsesRepository(sql);

  const visibleParent = async (tool: ToolRoute, idOrShareCode: string, caller: ToolsCaller) => {
    const parent = await findLiveContent(sql, tool, idOrShareCode);
    if (!parent || !canSee(parent, caller)) throw toolsError.parentNotFound();
    return parent;
  };

  const parentAlive = async (tool: ToolRoute, id: string) => (await findLiveContent(sql, tool, id)) !== null;

  const findResponse = async (tool: ToolRoute, id: string): Promise<ResponseRow | null> => (isUuid(id) ? repo.find(tool, id) : null);

  return {
    async create(tool: ToolRoute, promptId: string, input: CreateResponseInput, caller: ToolsCaller): Promise<{ response: ResponseView; rateLimit: RateLimitMeta }> {
      assertOwnSession(input.sessionId, caller);
      const parent = await visibleParent(tool, promptId, caller);
      const limits = await consumeCounters(sql, responseChecks(tool, caller), { scale: limitScale, onRefused: recordLimitHit(sql, caller) });
      try {
        const row = await repo.insertWithEvent(
          { tool, promptId: parent.id, sessionId: caller.sessionId, userId: caller.userId, title: input.title, content: input.content, wordCount: countWords(input.content), characterCount: countCharacters(input.content), isPublic: input.isPublic },
          { userId: caller.userId, sessionId: caller.sessionId, ipPrefix: caller.ipPrefix || null, userAgent: caller.userAgent },
        );
        return { response: toView(row, caller), rateLimit: limits.rateLimit };
      } catch (err) {
        await limits.refund();
        throw toolsError.saveFailed(err);
      }
    },

    async list(tool: ToolRoute, promptId: string, input: ListResponsesInput, caller: ToolsCaller): Promise<{ items: ResponseView[]; total: number }> {
      const parent = await visibleParent(tool, promptId, caller);
      const { rows, total } = await repo.list(tool, parent.id, caller, input.isPublic, input.limit, (input.page - 1) * input.limit);
      return { items: rows.map((r) => toView(r, caller)), total };
    },

    /** One response; a reader other than the owner counts as a view. */
    async get(tool: ToolRoute, id: string, caller: ToolsCaller): Promise<ResponseView> {
      const row = await findResponse(tool, id);
      if (!row || !canSeeResponse(row, caller)) throw toolsError.notFound('Response');
      const owner = ownsContent(row, caller);
      if (!(await parentAlive(tool, row.prompt_id))) throw toolsError.parentNotFound();
      if (owner) return toView(row, caller);
      const viewCount = await repo.countView(row.id);
      return toView({ ...row, view_count: viewCount ?? row.view_count + 1 }, caller);
    },

    async update(tool: ToolRoute, id: string, input: UpdateResponseInput, caller: ToolsCaller): Promise<ResponseView> {
      if (input.title === undefined && input.content === undefined && input.isPublic === undefined) {
        throw toolsError.invalidInput('title', 'Send at least one of title, content or isPublic');
      }
      const row = await findResponse(tool, id);
      // A response the caller may not even read is "not found", as get() says: a 403 would confirm it exists.
      if (!row || !canSeeResponse(row, caller)) throw toolsError.notFound('Response');
      // The body's sessionId must be the caller's own and the response's (spec: ownership by sessionId); an account owns its responses too.
      const bySession = input.sessionId === caller.sessionId && row.session_id === input.sessionId;
      const byAccount = caller.userId !== null && row.user_id === caller.userId;
      if (!bySession && !byAccount) throw toolsError.accessDenied('Only the session that wrote this response can change it');
      if (!(await parentAlive(tool, row.prompt_id))) throw toolsError.parentNotFound();
      const content = input.content;
      const updated = await repo.update(row.id, {
        title: input.title,
        isPublic: input.isPublic,
        content: content === undefined ? undefined : { text: content, wordCount: countWords(content), characterCount: countCharacters(content) },
      });
      if (!updated) throw toolsError.notFound('Response');
      return toView(updated, caller);
    },

    async remove(tool: ToolRoute, id: string, input: { sessionId?: string; reason?: string }, caller: ToolsCaller): Promise<{ id: string; deleted: true; deletedAt: string }> {
      const sessionId = input.sessionId ?? caller.sessionId;
      const row = await findResponse(tool, id);
      if (!row || !canSeeResponse(row, caller)) throw toolsError.notFound('Response');
      const bySession = sessionId === caller.sessionId && row.session_id === sessionId;
      const byAccount = caller.userId !== null && row.user_id === caller.userId;
      if (!bySession && !byAccount) throw toolsError.accessDenied('Only the session that wrote this response can delete it');
      const deletedAt = await repo.softDelete(row.id, input.reason ?? null);
      if (!deletedAt) throw toolsError.notFound('Response');
      return { id: row.id, deleted: true, deletedAt: toIso(deletedAt) };
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
        if (!response || !canSeeResponse(response, caller)) throw toolsError.notFound('Response');
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
      if (response && ownsContent(response, caller)) {
        await repo.setQualityScore(response.id, analysis.qualityScore);
        stored = true;
      }
      return { ...analysis, promptId, responseId: response?.id ?? null, stored };
    },
  };
}

export type ResponsesService = ReturnType<typeof createResponsesService>;
