// Request and answer schemas of the conversations routes (types are inferred from them).
import { z } from 'zod';
import { CONVERSATION_STATUSES } from '@story/db';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const looseObject = z.record(z.string(), z.unknown());

export const conversationView = z.object({
  id: z.uuid(),
  sessionId: z.string().nullable(),
  campaignId: z.string().nullable(),
  title: z.string().nullable(),
  overview: z.string().nullable(),
  status: z.enum(CONVERSATION_STATUSES),
  tags: z.array(z.string()),
  turnCount: z.number().int(),
  totalDurationSeconds: z.number().int(),
  qualityMetrics: looseObject.nullable(),
  analysis: looseObject.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
});

export const messageView = z.object({
  id: z.uuid(),
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
  durationSeconds: z.number().int().nullable(),
  hasAudio: z.boolean(),
  metadata: looseObject,
  createdAt: z.string(),
});

export const tally = z.object({ name: z.string(), mentions: z.number().int(), conversations: z.number().int() });
export const analysisView = z.object({
  source: z.enum(['offline', 'llm']),
  model: z.string(),
  conversationCount: z.number().int(),
  answerCount: z.number().int(),
  wordCount: z.number().int(),
  themes: z.array(tally),
  people: z.array(tally),
  places: z.array(tally),
  years: z.array(tally),
  analyzedAt: z.string(),
});

export const qualityView = z.object({
  answerCount: z.number().int(),
  questionCount: z.number().int(),
  averageAnswerWords: z.number(),
  longestAnswerWords: z.number().int(),
  shortAnswers: z.number().int(),
  specificDetailsPerAnswer: z.number(),
  questionVariety: z.number(),
  repeatedQuestions: z.number().int(),
  depthScore: z.number().int(),
  level: z.enum(['not started', 'shallow', 'developing', 'rich']),
  answers: z.array(
    z.object({ messageId: z.string(), words: z.number().int(), names: z.number().int(), dates: z.number().int(), places: z.number().int(), specificDetails: z.number().int() }),
  ),
  suggestions: z.array(z.string()),
  assessedAt: z.string(),
});
export const qualityResponse = z.object({ success: z.literal(true), conversationId: z.uuid(), quality: qualityView });

export const idParams = z.object({ id: z.uuid() });

/** A tag: trimmed, lower case, 1-40 characters, no commas (lists of tags are comma-separated in queries). */
export const tag = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters')
  .regex(/^[^,\p{Cc}]+$/u, 'must not contain commas or control characters');

export const chatBody = z.object({
  message: z.string().trim().min(1, 'must not be empty').max(20_000),
  sessionId: z.string().trim().min(1, 'must not be empty').max(200),
  context: z.string().trim().max(2000).optional(),
});

export const chatResponse = z.object({
  success: z.literal(true),
  response: z.string().describe('One warm follow-up question'),
  conversationId: z.uuid(),
  messageId: z.uuid().describe("The interviewer's message"),
  userMessageId: z.uuid(),
  sessionId: z.string(),
  turnCount: z.number().int(),
  isNewConversation: z.boolean(),
  model: z.string(),
});

export const listQuery = z.object({
  status: z.enum(CONVERSATION_STATUSES).optional(),
  tags: z.string().max(1000).optional().describe('Comma-separated; a conversation must carry every one'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
