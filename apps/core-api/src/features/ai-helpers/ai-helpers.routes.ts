// POST /api/ai/* (authenticated scope). Bodies are validated here (400 naming the field); past the tier's
// allowance the service throws 429 {success: false, error, limits, usage}, rendered by the error handler.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses } from '@story/http';
import * as S from './ai-helpers.schemas';
import type { AiHelpersService } from './ai-helpers.service';

const OFFLINE_NOTE =
  ' With a model configured (LLM_PROVIDER) the model answers (source llm, aiGenerated true); otherwise, or when the model call fails, an offline algorithm ' +
  'answers, labelled source offline, offline true, aiGenerated false, model local-*. Counts against the tier’s AI allowance (429 past it).';

const common = { tags: ['ai'], security: [{ bearerAuth: [] }] };
const errors = { 429: S.aiLimitError, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 413] as const) };

export const aiHelpersRoutes =
  ({ ai }: { ai: AiHelpersService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/grammar',
      {
        schema: {
          ...common,
          operationId: 'aiGrammar',
          summary: 'Correct spelling and grammar',
          description: 'Offline: Harper (harper.js) lints filtered by userStyle (light, moderate, comprehensive).' + OFFLINE_NOTE,
          body: S.grammarBody,
          response: { 200: S.grammarAnswer, ...errors },
        },
      },
      async (req) => ai.grammar(callerOf(req).userId, req.body),
    );
    app.post(
      '/grammar-analysis',
      {
        schema: {
          ...common,
          operationId: 'aiGrammarAnalysis',
          summary: 'List grammar issues with a score and readability',
          description: 'Offline: every Harper lint, a 0-100 score and Flesch reading ease.' + OFFLINE_NOTE,
          body: S.grammarAnalysisBody,
          response: { 200: S.grammarAnalysisAnswer, ...errors },
        },
      },
      async (req) => ai.grammarAnalysis(callerOf(req).userId, req.body),
    );
    app.post(
      '/content-analysis',
      {
        schema: {
          ...common,
          operationId: 'aiContentAnalysis',
          summary: 'Analyse a memory and recommend what to add',
          description: 'Measures (words, people, places, years, themes) and up to maxRecommendations suggestions; sessionId adds that chat’s storyteller turns.' + OFFLINE_NOTE,
          body: S.contentAnalysisBody,
          response: { 200: S.contentAnalysisAnswer, ...errors },
        },
      },
      async (req) => ai.contentAnalysis(callerOf(req).userId, req.body),
    );
    app.post(
      '/content-refinement',
      {
        schema: {
          ...common,
          operationId: 'aiContentRefinement',
          summary: 'Refine a text into a formal, casual or narrative style',
          description: 'Offline: meaning-preserving rules (contractions, spacing, capitals, paragraphs; fillers only without preserveVoice), every change listed.' + OFFLINE_NOTE,
          body: S.contentRefinementBody,
          response: { 200: S.contentRefinementAnswer, ...errors },
        },
      },
      async (req) => ai.contentRefinement(callerOf(req).userId, req.body),
    );
    app.post(
      '/memory-prompts',
      {
        schema: {
          ...common,
          operationId: 'aiMemoryPrompts',
          summary: 'Suggest the next questions for a storyteller',
          description: 'From the people, places and years in the caller’s stories and recordings (one campaign’s when campaignId is sent) and the themes not yet covered for the relationship.' + OFFLINE_NOTE,
          body: S.memoryPromptsBody,
          response: { 200: S.memoryPromptsAnswer, ...errors },
        },
      },
      async (req) => ai.memoryPrompts(callerOf(req).userId, req.body),
    );
    app.post(
      '/story-connections',
      {
        schema: {
          ...common,
          operationId: 'aiStoryConnections',
          summary: 'Find links between the caller’s stories',
          description: 'Pairs of stories sharing people, places or years, strongest first.' + OFFLINE_NOTE,
          body: S.storyConnectionsBody,
          response: { 200: S.storyConnectionsAnswer, ...errors },
        },
      },
      async (req) => ai.storyConnections(callerOf(req).userId, req.body),
    );
    app.post(
      '/photo-suggestions',
      {
        schema: {
          ...common,
          operationId: 'aiPhotoSuggestions',
          summary: 'Place the caller’s photos in a story’s paragraphs',
          description: 'Each photo’s title, caption and date matched against the paragraphs; photos that fit nowhere are listed as unplaced.' + OFFLINE_NOTE,
          body: S.photoSuggestionsBody,
          response: { 200: S.photoSuggestionsAnswer, ...errors },
        },
      },
      async (req) => ai.photoSuggestions(callerOf(req).userId, req.body),
    );
    app.post(
      '/template-refinement',
      {
        schema: {
          ...common,
          operationId: 'aiTemplateRefinement',
          summary: 'Tidy a book or prompt template',
          description: 'Placeholders normalised to {{name}}, spacing and question marks fixed, repeats removed; problems listed in issues.' + OFFLINE_NOTE,
          body: S.templateRefinementBody,
          response: { 200: S.templateRefinementAnswer, ...errors },
        },
      },
      async (req) => ai.templateRefinement(callerOf(req).userId, req.body),
    );
  };
