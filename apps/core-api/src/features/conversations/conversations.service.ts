// Conversations with the AI interviewer (spec 000 Conversations): chat turns, summaries, completion,
// tags, analysis, quality metrics and the audio of a turn. Every :id goes through the access policy
// (someone else's conversation is a 404); every multi-row write is one transaction. The SQL lives in
// conversations.repository.ts; the chat turn, the analysis and the turn audio each have their own file.
import { z } from 'zod';
import type { Database } from '@story/db';
import { badRequest, conflict, notFound } from '@story/http';
import type { LanguageModel, ObjectStorage } from '@story/providers';
import type { AccessPolicy, Permission } from '../access/access.policy';
import { providerFailure } from '../speech/provider-failure';
import { createConversationsRepository, type ConversationRow } from './conversations.repository';
import { answersText, MAX_TAGS, normalizeTags, toMessage, toView } from './conversations.views';
import { analyzeTexts } from './conversation-analysis';
import { createTurnAudio, type TurnAudioDeps, type TurnAudioInput } from './conversation-audio';
import { createInterviewerChat } from './conversation-chat';
import { assessQuality, type QualityMetrics } from './conversation-insights';

export { MAX_TAGS, MAX_TURN_SECONDS, normalizeTags, type ConversationView, type MessageView } from './conversations.views';
export type { ConversationAnalysis, Tally } from './conversation-analysis';

const summarySchema = z.object({ title: z.string().trim().min(1), summary: z.string().trim().min(1) });

const SUMMARY_SYSTEM_PROMPT =
  'You title and summarise a storyteller\'s spoken memories for their family. Answer JSON {"title": string, "summary": string}: a title of at most 8 words and a summary of one or two sentences, using only what the storyteller said (no invented names, dates or places).';

export interface ConversationsDeps {
  db: Database;
  llm: LanguageModel;
  storage: Pick<ObjectStorage, 'put' | 'delete'>;
  access: Pick<AccessPolicy, 'require'>;
  /** Seconds of media in the bytes, or null when they cannot be read. */
  probeDuration: (media: Buffer, signal?: AbortSignal) => Promise<number | null>;
  /** Server transcription of turns stored without a transcript (conversation-audio.ts). */
  queueTranscription?: TurnAudioDeps['queueTranscription'];
  wakeRunner?: () => void;
}

export function createConversationsService(deps: ConversationsDeps) {
  const { llm, access } = deps;
  const repo = createConversationsRepository(deps.db);
  const chat = createInterviewerChat({ repo, llm });
  const turnAudio = createTurnAudio({ repo, storage: deps.storage, probeDuration: deps.probeDuration, queueTranscription: deps.queueTranscription, wakeRunner: deps.wakeRunner });

  /** The conversation when the caller may do `permission` with it: 404 when not theirs to see, 403 when they lack the role. */
  async function load(callerId: string, id: string, permission: Permission): Promise<ConversationRow> {
    const row = await repo.findById(id);
    if (!row) throw notFound('Conversation');
    await access.require(callerId, row.userId, permission, 'Conversation');
    return row;
  }

  return {
    chat,

    async list(userId: string, query: { status?: 'active' | 'completed'; tags?: string[]; limit: number; offset: number }) {
      const { rows, total } = await repo.list(userId, query);
      return { conversations: rows.map(toView), total };
    },

    async get(userId: string, id: string) {
      const row = await load(userId, id, 'view_stories');
      const messages = await repo.messagesOf(id);
      return { conversation: { ...toView(row), messages: messages.map(toMessage) } };
    },

    async summarize(userId: string, id: string) {
      await load(userId, id, 'edit_stories');
      const text = answersText(await repo.messagesOf(id));
      if (!text) throw conflict('This conversation has no answers to summarize yet');
      let data: z.infer<typeof summarySchema>;
      try {
        ({ data } = await llm.completeJson(
          { task: 'title-summary', input: { text }, system: SUMMARY_SYSTEM_PROMPT, promptKey: 'conversation.summary', messages: [{ role: 'user', content: text.slice(0, 60_000) }], maxTokens: 300, temperature: 0.3 },
          summarySchema,
          { userId, feature: 'conversation:summarize' },
        ));
      } catch (err) {
        throw providerFailure(err, { what: 'Summarizing the conversation' });
      }
      const title = data.title.replace(/\s+/g, ' ').slice(0, 200);
      const overview = data.summary.replace(/\s+/g, ' ').slice(0, 5000);
      const row = await repo.update(id, { title, overview });
      return { title, overview, conversation: toView(row) };
    },

    /** active -> completed with completed_at; completing a completed conversation changes nothing (idempotent). */
    async complete(userId: string, id: string) {
      await load(userId, id, 'edit_stories');
      const changed = await repo.completeIfActive(id);
      if (changed) return { alreadyCompleted: false, conversation: toView(changed) };
      const current = await repo.findById(id);
      if (!current) throw notFound('Conversation');
      return { alreadyCompleted: true, conversation: toView(current) };
    },

    async stats(userId: string) {
      const [totals, answers, topTags] = [await repo.totals(userId), await repo.answerTotals(userId), await repo.topTags(userId, 10)];
      const total = Number(totals?.total ?? 0);
      const messages = Number(totals?.messages ?? 0);
      const last = totals?.lastActivity;
      return {
        total,
        active: Number(totals?.active ?? 0),
        completed: Number(totals?.completed ?? 0),
        summarized: Number(totals?.summarized ?? 0),
        totalMessages: messages,
        storytellerAnswers: Number(answers?.count ?? 0),
        answersWithAudio: Number(answers?.withAudio ?? 0),
        totalWords: Number(answers?.words ?? 0),
        totalDurationSeconds: Number(totals?.durationSeconds ?? 0),
        averageTurns: total ? Math.round((messages / total) * 10) / 10 : 0,
        conversationsThisMonth: Number(totals?.thisMonth ?? 0),
        lastActivityAt: last ? new Date(last).toISOString() : null,
        topTags,
      };
    },

    async allTags(userId: string) {
      return { tags: await repo.distinctTags(userId) };
    },

    async getTags(userId: string, id: string) {
      const row = await load(userId, id, 'view_stories');
      return { conversationId: row.id, tags: row.tags };
    },

    async setTags(userId: string, id: string, tags: string[]) {
      await load(userId, id, 'edit_stories');
      const normalized = normalizeTags(tags);
      if (normalized.length > MAX_TAGS) throw badRequest(`tags: at most ${MAX_TAGS} tags`, { field: 'tags' });
      const row = await repo.update(id, { tags: normalized });
      return { conversationId: row.id, tags: row.tags };
    },

    /** Themes, people, places and years across the caller's conversations (all, or the ids given). */
    async analyzeAll(userId: string, input: { conversationIds?: string[] }) {
      const ids = input.conversationIds ? [...new Set(input.conversationIds)] : undefined;
      const owned = await repo.ownedIds(userId, ids, 200);
      if (ids && owned.length !== ids.length) throw notFound('Conversation');
      const texts: string[] = [];
      let answerCount = 0;
      if (owned.length > 0) {
        const byConversation = new Map<string, string[]>();
        for (const r of await repo.answersOf(owned)) {
          if (!r.content.trim()) continue;
          answerCount++;
          byConversation.set(r.conversationId, [...(byConversation.get(r.conversationId) ?? []), r.content.trim()]);
        }
        for (const parts of byConversation.values()) texts.push(parts.join('\n\n'));
      }
      const analysis = await analyzeTexts(llm, userId, texts);
      return { analysis: { ...analysis, conversationCount: owned.length, answerCount } };
    },

    async analyzeOne(userId: string, id: string) {
      await load(userId, id, 'edit_stories');
      const messages = await repo.messagesOf(id);
      const text = answersText(messages);
      const analysis = { ...(await analyzeTexts(llm, userId, text ? [text] : [])), conversationCount: 1, answerCount: messages.filter((m) => m.role === 'user' && m.content.trim()).length };
      const row = await repo.update(id, { analysis: { ...analysis } });
      return { analysis, conversation: toView(row) };
    },

    async assessQuality(userId: string, target: { conversationId?: string; sessionId?: string }): Promise<{ conversationId: string; quality: QualityMetrics }> {
      let id = target.conversationId;
      if (!id) {
        id = await repo.findIdBySession(userId, target.sessionId ?? '');
        if (!id) throw notFound('Conversation');
      }
      await load(userId, id, 'edit_stories');
      const quality = assessQuality(await repo.messagesOf(id));
      await repo.update(id, { qualityMetrics: { ...quality } });
      return { conversationId: id, quality };
    },

    /** Store the audio of one turn and attach it to `messageId` (or to a new answer); see conversation-audio.ts. */
    async uploadAudio(userId: string, input: TurnAudioInput & { conversationId: string }, signal: AbortSignal) {
      const conversation = await load(userId, input.conversationId, 'edit_stories');
      return turnAudio(conversation, input, signal);
    },
  };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
