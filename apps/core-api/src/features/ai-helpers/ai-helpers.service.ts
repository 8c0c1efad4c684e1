// The AI helpers (spec 000 "AI helpers"). Each request: the body's userId must be the caller's; the
// caller's rows are loaded (a stranger's id is 404 before anything is counted); one request of the tier's
// allowance is taken (429 past it); then a configured model answers through the LLM port (which logs its
// tokens and cost to ai_usage_logs), or, with no model or when the model call fails, the offline algorithm
// answers, labelled offline, and its use is logged with cost 0. A helper that fails gives its request back.
import type { Sql } from 'postgres';
import type { z } from 'zod';
import { AppError, notFound } from '@story/http';
import { ProviderError, type LanguageModel, type UsageRecorder } from '@story/providers';
import { releaseAiRequest, reserveAiRequest } from './ai-allowance';
import type { AiHelpersRepository } from './ai-helpers.repository';
import type * as S from './ai-helpers.schemas';
import { GRAMMAR_LEVELS } from './ai-helpers.schemas';
import { contentAnalysisOffline, contentFromModel, contentModelSchema, CONTENT_SYSTEM } from './content-analysis';
import { refinementFromModel, refinementModelSchema, refinementSystem, refineOffline } from './content-refinement';
import * as grammar from './grammar';
import type { GrammarChecker } from './harper-checker';
import { memoryPromptsOffline, promptsBrief, promptsModelSchema, PROMPTS_SYSTEM } from './memory-prompts';
import { PHOTOS_SYSTEM, photosBrief, photosFromModel, photosModelSchema, placePhotosOffline } from './photo-suggestions';
import { CONNECTIONS_SYSTEM, connectionsBrief, connectionsFromModel, connectionsModelSchema, connectionsOffline } from './story-connections';
import { refineTemplateOffline, templateFromModel, templateModelSchema, templateSystem } from './template-refinement';
import { wordsOf } from './text-measures';

export type Helper = 'grammar' | 'grammar-analysis' | 'content-analysis' | 'content-refinement' | 'memory-prompts' | 'story-connections' | 'photo-suggestions' | 'template-refinement';

export interface AiHelpersDeps {
  sql: Sql;
  repo: AiHelpersRepository;
  llm: LanguageModel;
  usage: UsageRecorder;
  checker: GrammarChecker;
  log?: (err: unknown, helper: Helper) => void;
}

interface ModelStep<T, D> {
  system: string;
  user: string;
  input: Record<string, unknown>;
  schema: z.ZodType<D>;
  maxTokens: number;
  toAnswer: (data: D) => T;
}

/** Plain text of story HTML (paragraph breaks kept as blank lines). */
const plain = (html: string) =>
  html
    .replace(/<\/p>|<br\s*\/?>/gi, '\n\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n\s*/g, '\n\n')
    .trim();

export function createAiHelpersService(deps: AiHelpersDeps) {
  const { sql, repo, llm, usage, checker } = deps;

  /** The spec's bodies carry a userId: it may only name the caller (a helper never reads another account). */
  function assertOwnUserId(callerId: string, userId: string | undefined) {
    if (userId !== undefined && userId !== callerId) {
      throw new AppError('forbidden', 'userId must be your own account', { field: 'userId', details: 'The AI helpers work only on the signed-in account’s own data.' });
    }
  }

  async function answer<T extends object, D>(helper: Helper, userId: string, inputText: string, offline: () => Promise<T> | T, model?: ModelStep<T, D>): Promise<T & S.Labelled> {
    const reservation = await reserveAiRequest(sql, userId);
    try {
      let fallback: string | undefined;
      if (model && llm.provider !== 'local') {
        try {
          const result = await llm.completeJson(
            { task: `ai-${helper}`, input: model.input, system: model.system, messages: [{ role: 'user', content: model.user }], maxTokens: model.maxTokens, temperature: 0.2 },
            model.schema,
            { userId, feature: `ai:${helper}` },
          );
          return { ...model.toAnswer(result.data), success: true, source: 'llm', offline: false, aiGenerated: true, model: result.model };
        } catch (err) {
          if (!(err instanceof ProviderError)) throw err;
          deps.log?.(err, helper);
          fallback = `The ${llm.provider} model could not answer (${err.kind}); this is the offline result.`;
        }
      }
      const started = performance.now();
      const result = await offline();
      const modelName = helper === 'grammar' || helper === 'grammar-analysis' ? `local-${checker.name}` : `local-${helper}`;
      const outputWords = wordsOf(JSON.stringify(result)).length;
      await usage.record({
        userId,
        feature: `ai:${helper}`,
        provider: 'local',
        model: modelName,
        operation: 'llm',
        inputTokens: wordsOf(inputText).length,
        outputTokens: outputWords,
        costUsd: 0,
        latencyMs: performance.now() - started,
        success: true,
        metadata: { offline: true, tokens: 'words', ...(fallback ? { fallbackFrom: llm.provider } : {}) },
      });
      return { ...result, success: true, source: 'offline', offline: true, aiGenerated: false, model: modelName, ...(fallback ? { fallback } : {}) };
    } catch (err) {
      await releaseAiRequest(sql, reservation);
      throw err;
    }
  }

  return {
    async grammar(callerId: string, body: S.GrammarBody): Promise<S.GrammarAnswer> {
      assertOwnUserId(callerId, body.userId);
      const stored = await repo.grammarLevel(callerId);
      const applied = grammar.styleLevel(body.userStyle, GRAMMAR_LEVELS.find((l) => l === stored));
      const level = applied.level;
      const result = await answer('grammar', callerId, body.text, () => grammar.grammarOffline(checker, body.text, level), {
        system: grammar.GRAMMAR_SYSTEM,
        user: `Level: ${level}\n\n${body.text}`,
        input: { text: body.text, level },
        schema: grammar.grammarModelSchema,
        maxTokens: 4000,
        toAnswer: (data) => grammar.grammarFromModel(body.text, level, data),
      });
      return { ...result, appliedStyle: { ...applied, ...(body.userStyle !== undefined ? { userStyle: body.userStyle } : {}) } };
    },

    async grammarAnalysis(callerId: string, body: S.GrammarAnalysisBody): Promise<S.GrammarAnalysisAnswer> {
      return answer('grammar-analysis', callerId, body.text, () => grammar.grammarAnalysisOffline(checker, body.text, body.includeExplanations), {
        system: grammar.ANALYSIS_SYSTEM,
        user: body.text,
        input: { text: body.text },
        schema: grammar.analysisModelSchema,
        maxTokens: 4000,
        toAnswer: (data) => grammar.analysisFromModel(body.text, body.includeExplanations, data),
      });
    },

    async contentAnalysis(callerId: string, body: S.ContentAnalysisBody): Promise<S.ContentAnalysisAnswer> {
      assertOwnUserId(callerId, body.userId);
      let text = body.prompt;
      // spec 000: sessionId is optional context. One that is not a conversation of the caller's (unknown,
      // or another account's) is ignored, not an error; the answer says whether it was read.
      const turns = body.sessionId === undefined ? null : await repo.conversationTurns(callerId, body.sessionId);
      if (turns) text = [body.prompt, ...turns].join('\n\n');
      const { analysisDepth: depth, maxRecommendations: max } = body;
      const result = await answer('content-analysis', callerId, text, () => contentAnalysisOffline(text, depth, max), {
        system: CONTENT_SYSTEM,
        user: `Give at most ${max} recommendations (${depth} analysis).\n\n${text}`,
        input: { text, depth, max },
        schema: contentModelSchema,
        maxTokens: 1500,
        toAnswer: (data) => contentFromModel(text, depth, max, data),
      });
      return body.sessionId === undefined ? result : { ...result, sessionId: body.sessionId, sessionFound: turns !== null };
    },

    async contentRefinement(callerId: string, body: S.ContentRefinementBody): Promise<S.ContentRefinementAnswer> {
      return answer('content-refinement', callerId, body.content, () => refineOffline(body.content, body.style, body.preserveVoice), {
        system: refinementSystem(body.style, body.preserveVoice),
        user: body.content,
        input: { content: body.content, style: body.style, preserveVoice: body.preserveVoice },
        schema: refinementModelSchema,
        maxTokens: 6000,
        toAnswer: (data) => refinementFromModel(body.style, data),
      });
    },

    async memoryPrompts(callerId: string, body: S.MemoryPromptsBody): Promise<S.MemoryPromptsAnswer> {
      const campaign = body.campaignId ? await repo.campaign(callerId, body.campaignId) : null;
      if (body.campaignId && !campaign) throw notFound('Campaign', { field: 'campaignId' });
      const [stories, recordings] = await Promise.all([repo.stories(callerId, { campaignId: body.campaignId }), repo.recordingTexts(callerId, body.campaignId)]);
      const src = {
        texts: [...stories.map((s) => ({ title: s.title, text: plain(s.content) })), ...recordings.filter((r) => r.transcript).map((r) => ({ title: r.title, text: r.transcript }))],
        relationship: campaign?.relationship ?? null,
        storytellerName: campaign?.storytellerName ?? null,
        topic: body.topic,
      };
      const basedOn = { stories: stories.length, recordings: recordings.filter((r) => r.transcript).length, relationship: src.relationship };
      const brief = promptsBrief(src, body.count);
      return answer('memory-prompts', callerId, brief, () => ({ prompts: memoryPromptsOffline(src, body.count), basedOn }), {
        system: PROMPTS_SYSTEM,
        user: brief,
        input: { brief },
        schema: promptsModelSchema,
        maxTokens: 1500,
        toAnswer: (data) => ({ prompts: data.prompts.slice(0, body.count), basedOn }),
      });
    },

    async storyConnections(callerId: string, body: S.StoryConnectionsBody): Promise<S.StoryConnectionsAnswer> {
      const ids = body.storyIds ? [...new Set(body.storyIds)] : undefined;
      const rows = await repo.stories(callerId, { ids });
      if (ids && rows.length !== ids.length) throw notFound('Story', { field: 'storyIds' });
      const stories = rows.map((s) => ({ id: s.id, title: s.title, text: plain(s.content) }));
      const brief = connectionsBrief(stories);
      return answer('story-connections', callerId, brief, () => ({ connections: connectionsOffline(stories, body.minShared), storiesCompared: stories.length }), {
        system: CONNECTIONS_SYSTEM,
        user: brief,
        input: { brief },
        schema: connectionsModelSchema,
        maxTokens: 2000,
        toAnswer: (data) => ({ connections: connectionsFromModel(stories, data), storiesCompared: Math.min(stories.length, 50) }),
      });
    },

    async photoSuggestions(callerId: string, body: S.PhotoSuggestionsBody): Promise<S.PhotoSuggestionsAnswer> {
      const [story] = await repo.stories(callerId, { ids: [body.storyId] });
      if (!story) throw notFound('Story', { field: 'storyId' });
      const ids = body.imageIds ? [...new Set(body.imageIds)] : undefined;
      const images = await repo.images(callerId, ids);
      if (ids && images.length !== ids.length) throw notFound('Image', { field: 'imageIds' });
      const brief = photosBrief(story.content, images);
      const result = await answer('photo-suggestions', callerId, brief, () => placePhotosOffline(story.content, images), {
        system: PHOTOS_SYSTEM,
        user: brief,
        input: { brief },
        schema: photosModelSchema,
        maxTokens: 1500,
        toAnswer: (data) => photosFromModel(story.content, images, data),
      });
      return { ...result, storyId: story.id };
    },

    async templateRefinement(callerId: string, body: S.TemplateRefinementBody): Promise<S.TemplateRefinementAnswer> {
      return answer('template-refinement', callerId, body.template, () => refineTemplateOffline(body.template, body.templateType), {
        system: templateSystem(body.templateType),
        user: body.template,
        input: { template: body.template, templateType: body.templateType },
        schema: templateModelSchema,
        maxTokens: 3000,
        toAnswer: (data) => templateFromModel(body.template, data),
      });
    },
  };
}

export type AiHelpersService = ReturnType<typeof createAiHelpersService>;
