// Conversations (spec 000 Conversations): /api/conversation/* and /api/conversations/*, in the
// authenticated scope where this area registered the multipart plugin.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { badRequest, coreErrorSchema, errorResponses, multipartBody, routeMedia, type RateLimitHandle } from '@story/http';
import { MULTIPART_FILE_LIMIT_BYTES, readMultipartAudio, requireAudio } from '../speech/audio-upload';
import { abortOnDisconnect, sendSynthesis } from '../speech/audio-reply';
import { audioStream, mp3Answer, speechText } from '../speech/speech.routes';
import type { SpeechService } from '../speech/speech.service';
import { MAX_TAGS, MAX_TURN_SECONDS, type ConversationsService } from './conversations.service';
import {
  analysisView,
  chatBody,
  chatResponse,
  conversationView,
  idParams,
  listQuery,
  messageView,
  qualityResponse,
  tag,
  UUID,
} from './conversations.schemas';
import { withinBudget } from './time-budget';

/** Spec 000 "Recording to story" 9: the conversation upload route has a 5-minute execution budget. */
export const UPLOAD_BUDGET_MS = 5 * 60 * 1000;

const auth = { security: [{ bearerAuth: [] }], tags: ['conversations'] };

export const conversationsRoutes =
  ({ conversations, speech, rateLimit }: { conversations: ConversationsService; speech: SpeechService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/conversation/chat',
      {
        schema: {
          ...auth,
          operationId: 'conversationChat',
          summary: 'Answer the interviewer; get one warm follow-up question',
          description: "Finds or creates the caller's conversation for sessionId, stores the answer and the interviewer's next question.",
          body: chatBody,
          response: { 200: chatResponse, ...errorResponses(coreErrorSchema, [400, 401, 409, 413, 415, 429, 502, 503, 504] as const) },
        },
      },
      async (req) => ({ success: true as const, ...(await conversations.chat(callerOf(req).userId, req.body)) }),
    );

    app.post(
      '/api/conversation/tts',
      {
        schema: {
          ...auth,
          operationId: 'conversationSpeech',
          summary: "The interviewer's question as speech (MP3 stream)",
          description: 'Streams MP3 from the default text-to-speech provider with X-Provider, X-Voice-ID, X-Character-Count and X-Estimated-Cost headers.',
          body: z.object({ text: speechText, voiceId: z.string().trim().min(1).max(100).optional() }),
          ...mp3Answer,
          response: { 200: audioStream, ...errorResponses(coreErrorSchema, [400, 401, 413, 415, 429, 502, 503, 504] as const) },
        },
      },
      async (req, reply) => {
        const synthesis = await speech.synthesizeDefault({
          text: req.body.text,
          voiceId: req.body.voiceId,
          voiceField: 'voiceId',
          userId: callerOf(req).userId,
          feature: 'conversation:tts',
          signal: abortOnDisconnect(req, reply),
        });
        return sendSynthesis(reply, synthesis, { realtime: true });
      },
    );

    app.post(
      '/api/conversation/quality-assessment',
      {
        schema: {
          ...auth,
          operationId: 'assessConversationQuality',
          summary: 'Depth metrics of a conversation (by id or sessionId), stored with it',
          body: z
            .object({ conversationId: z.uuid().optional(), sessionId: z.string().trim().min(1).max(200).optional() })
            .refine((b) => b.conversationId !== undefined || b.sessionId !== undefined, { message: 'conversationId or sessionId is required', path: ['conversationId'] }),
          response: { 200: qualityResponse, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, ...(await conversations.assessQuality(callerOf(req).userId, req.body)) }),
    );

    app.get(
      '/api/conversations',
      {
        schema: {
          ...auth,
          operationId: 'listConversations',
          summary: "The caller's conversations, newest first",
          querystring: listQuery,
          response: { 200: z.object({ conversations: z.array(conversationView), total: z.number().int() }), ...errorResponses(coreErrorSchema, [400, 401, 429] as const) },
        },
      },
      async (req) => {
        const tags = req.query.tags
          ?.split(',')
          .map((t) => t.trim().toLowerCase())
          .filter(Boolean);
        return conversations.list(callerOf(req).userId, { status: req.query.status, tags, limit: req.query.limit, offset: req.query.offset });
      },
    );

    app.get(
      '/api/conversations/stats',
      {
        schema: {
          ...auth,
          operationId: 'conversationStats',
          summary: "Statistics of the caller's conversations",
          response: {
            200: z.object({
              total: z.number().int(),
              active: z.number().int(),
              completed: z.number().int(),
              summarized: z.number().int(),
              totalMessages: z.number().int(),
              storytellerAnswers: z.number().int(),
              answersWithAudio: z.number().int(),
              totalWords: z.number().int(),
              totalDurationSeconds: z.number().int(),
              averageTurns: z.number(),
              conversationsThisMonth: z.number().int(),
              lastActivityAt: z.string().nullable(),
              topTags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
            }),
            ...errorResponses(coreErrorSchema, [401, 429] as const),
          },
        },
      },
      async (req) => conversations.stats(callerOf(req).userId),
    );

    app.get(
      '/api/conversations/tags',
      {
        schema: {
          ...auth,
          operationId: 'conversationTags',
          summary: "Unique tags over the caller's conversations",
          response: { 200: z.object({ tags: z.array(z.string()) }), ...errorResponses(coreErrorSchema, [401, 429] as const) },
        },
      },
      async (req) => conversations.allTags(callerOf(req).userId),
    );

    app.post(
      '/api/conversations/analyze',
      {
        schema: {
          ...auth,
          operationId: 'analyzeConversations',
          summary: "Themes, people, places and years across the caller's conversations",
          // No body at all means every conversation of the caller.
          body: z.object({ conversationIds: z.array(z.uuid()).min(1).max(200).optional() }).nullish(),
          response: { 200: z.object({ success: z.literal(true), analysis: analysisView }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, ...(await conversations.analyzeAll(callerOf(req).userId, { conversationIds: req.body?.conversationIds })) }),
    );

    app.post(
      '/api/conversations/upload-audio',
      {
        config: { rateLimit: rateLimit.route('core.uploads') },
        schema: {
          ...auth,
          operationId: 'uploadConversationAudio',
          summary: 'Store the audio of one conversation turn (at most 5 minutes)',
          description:
            'multipart/form-data: audio (file, at most 8 MB), conversationId, messageId (optional: the turn the audio belongs to; otherwise a new answer is added), duration (seconds, optional: probed from the media when not sent), transcript (optional). 502 when storage fails (nothing is written).',
          ...routeMedia({
            requestBody: multipartBody({
              file: { names: ['audio'], types: ['audio/*', 'video/*'], maxBytes: MULTIPART_FILE_LIMIT_BYTES, description: 'The audio of the turn' },
              fields: z.object({
                conversationId: z.uuid(),
                messageId: z.uuid().optional().describe('The turn the audio belongs to; otherwise a new answer is added'),
                duration: z.number().min(0).max(300).optional().describe('Seconds; probed from the media when not sent'),
                transcript: z.string().max(20_000).optional(),
              }),
            }),
          }),
          response: {
            201: z.object({
              success: z.literal(true),
              conversationId: z.uuid(),
              messageId: z.uuid(),
              audioKey: z.string(),
              durationSeconds: z.number().int(),
              size: z.number().int(),
              mimeType: z.string(),
              turnCount: z.number().int(),
              totalDurationSeconds: z.number().int(),
            }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 413, 429, 502, 503, 504] as const),
          },
        },
      },
      async (req, reply) => {
        const userId = callerOf(req).userId;
        const result = await withinBudget(UPLOAD_BUDGET_MS, 'The audio upload', async (signal) => {
          const { file, fields } = await readMultipartAudio(req, 'audio');
          const conversationId = fields['conversationId']?.trim();
          if (!conversationId || !UUID.test(conversationId)) throw badRequest('conversationId is required and must be a uuid', { field: 'conversationId' });
          const messageId = fields['messageId']?.trim() || undefined;
          if (messageId !== undefined && !UUID.test(messageId)) throw badRequest('messageId must be a uuid', { field: 'messageId' });
          let durationSeconds: number | undefined;
          const rawDuration = fields['duration']?.trim();
          if (rawDuration) {
            durationSeconds = Number(rawDuration);
            if (!Number.isFinite(durationSeconds) || durationSeconds < 0) throw badRequest('duration must be a number of seconds, 0 or more', { field: 'duration' });
            if (Math.round(durationSeconds) > MAX_TURN_SECONDS) throw badRequest('duration: a conversation turn is at most 5 minutes (300 seconds)', { field: 'duration' });
          }
          const transcript = fields['transcript']?.trim() || undefined;
          if (transcript !== undefined && transcript.length > 20_000) throw badRequest('transcript must be at most 20000 characters', { field: 'transcript' });
          const audio = await requireAudio(file, 'audio');
          return conversations.uploadAudio(userId, { conversationId, messageId, audio, durationSeconds, transcript }, signal);
        });
        return reply.status(201).send({ success: true as const, ...result });
      },
    );

    app.get(
      '/api/conversations/:id',
      {
        schema: {
          ...auth,
          operationId: 'getConversation',
          summary: 'One conversation with its messages in order',
          params: idParams,
          response: { 200: z.object({ conversation: conversationView.extend({ messages: z.array(messageView) }) }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => conversations.get(callerOf(req).userId, req.params.id),
    );

    app.post(
      '/api/conversations/:id/summarize',
      {
        schema: {
          ...auth,
          operationId: 'summarizeConversation',
          summary: 'Title and overview from what the storyteller said',
          params: idParams,
          response: {
            200: z.object({ success: z.literal(true), title: z.string(), overview: z.string(), conversation: conversationView }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 429, 502, 503, 504] as const),
          },
        },
      },
      async (req) => ({ success: true as const, ...(await conversations.summarize(callerOf(req).userId, req.params.id)) }),
    );

    app.post(
      '/api/conversations/:id/complete',
      {
        schema: {
          ...auth,
          operationId: 'completeConversation',
          summary: 'Mark a conversation completed (idempotent)',
          params: idParams,
          response: {
            200: z.object({ success: z.literal(true), alreadyCompleted: z.boolean(), conversation: conversationView }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const),
          },
        },
      },
      async (req) => ({ success: true as const, ...(await conversations.complete(callerOf(req).userId, req.params.id)) }),
    );

    app.post(
      '/api/conversations/:id/analyze',
      {
        schema: {
          ...auth,
          operationId: 'analyzeConversation',
          summary: 'Themes, people, places and years of one conversation (stored with it)',
          params: idParams,
          response: {
            200: z.object({ success: z.literal(true), analysis: analysisView, conversation: conversationView }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const),
          },
        },
      },
      async (req) => ({ success: true as const, ...(await conversations.analyzeOne(callerOf(req).userId, req.params.id)) }),
    );

    app.post(
      '/api/conversations/:id/analyze-quality',
      {
        schema: {
          ...auth,
          operationId: 'analyzeConversationQuality',
          summary: 'Depth metrics of one conversation (stored in quality_metrics)',
          params: idParams,
          response: { 200: qualityResponse, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, ...(await conversations.assessQuality(callerOf(req).userId, { conversationId: req.params.id })) }),
    );

    app.get(
      '/api/conversations/:id/tags',
      {
        schema: {
          ...auth,
          operationId: 'getConversationTags',
          summary: 'Tags of one conversation',
          params: idParams,
          response: { 200: z.object({ conversationId: z.uuid(), tags: z.array(z.string()) }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => conversations.getTags(callerOf(req).userId, req.params.id),
    );

    app.put(
      '/api/conversations/:id/tags',
      {
        schema: {
          ...auth,
          operationId: 'setConversationTags',
          summary: `Replace the tags of one conversation (at most ${MAX_TAGS}; trimmed, lower case, 1-40 characters)`,
          params: idParams,
          body: z.object({ tags: z.array(tag).max(MAX_TAGS, `at most ${MAX_TAGS} tags`) }),
          response: {
            200: z.object({ success: z.literal(true), conversationId: z.uuid(), tags: z.array(z.string()) }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 413, 415, 429] as const),
          },
        },
      },
      async (req) => ({ success: true as const, ...(await conversations.setTags(callerOf(req).userId, req.params.id, req.body.tags)) }),
    );
  };
