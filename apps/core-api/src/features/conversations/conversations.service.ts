// Conversations with the AI interviewer (spec 000 Conversations): chat turns, summaries, completion,
// tags, analysis, quality metrics and the audio of a turn. Every :id goes through the access policy
// (someone else's conversation is a 404); every multi-row write is one transaction.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { conversationMessages, conversations, one, type Database } from '@story/db';
import { AppError, badRequest, conflict, notFound } from '@story/http';
import { interviewQuestion, newObjectKey, ProviderError, type LanguageModel, type ObjectStorage } from '@story/providers';
import type { AccessPolicy, Permission } from '../access/access.policy';
import type { UploadedAudio } from '../speech/audio-upload';
import { providerFailure } from '../speech/provider-failure';
import { assessQuality, extractMentions, findThemes, wordCount, type QualityMetrics } from './conversation-insights';
import { INTERVIEWER_SYSTEM_PROMPT, interviewHistory, oneQuestion } from './interviewer';

/** Spec 000 Limits: a conversation turn is at most 5 minutes. */
export const MAX_TURN_SECONDS = 300;
export const MAX_TAGS = 20;

type ConversationRow = typeof conversations.$inferSelect;
type MessageRow = typeof conversationMessages.$inferSelect;

export interface ConversationView {
  id: string;
  sessionId: string | null;
  campaignId: string | null;
  title: string | null;
  overview: string | null;
  status: 'active' | 'completed';
  tags: string[];
  turnCount: number;
  totalDurationSeconds: number;
  qualityMetrics: Record<string, unknown> | null;
  analysis: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

export interface MessageView {
  id: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  durationSeconds: number | null;
  hasAudio: boolean;
  metadata: Record<string, unknown>;
  createdAt: string;
}

export interface Tally {
  name: string;
  mentions: number;
  conversations: number;
}

export interface ConversationAnalysis {
  source: 'offline' | 'llm';
  model: string;
  conversationCount: number;
  answerCount: number;
  wordCount: number;
  themes: Tally[];
  people: Tally[];
  places: Tally[];
  years: Tally[];
  analyzedAt: string;
}

const toView = (row: ConversationRow): ConversationView => ({
  id: row.id,
  sessionId: row.sessionId,
  campaignId: row.campaignId,
  title: row.title,
  overview: row.overview,
  status: row.status,
  tags: row.tags,
  turnCount: row.turnCount,
  totalDurationSeconds: row.totalDurationSeconds,
  qualityMetrics: row.qualityMetrics ?? null,
  analysis: row.analysis ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  completedAt: row.completedAt ? row.completedAt.toISOString() : null,
});

const toMessage = (row: MessageRow): MessageView => ({
  id: row.id,
  role: row.role,
  content: row.content,
  durationSeconds: row.durationSeconds,
  hasAudio: row.audioStorageKey !== null,
  metadata: row.metadata,
  createdAt: row.createdAt.toISOString(),
});

/** Tags as stored: trimmed, lower case, unique, in the order given (the route has checked their shape). */
export function normalizeTags(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().toLowerCase()).filter(Boolean))];
}

const summarySchema = z.object({ title: z.string().trim().min(1), summary: z.string().trim().min(1) });
const analysisSchema = z.object({
  themes: z.array(z.string()).max(30),
  people: z.array(z.string()).max(100),
  places: z.array(z.string()).max(100),
  years: z.array(z.union([z.string(), z.number()])).max(100),
});

const SUMMARY_SYSTEM_PROMPT =
  'You title and summarise a storyteller\'s spoken memories for their family. Answer JSON {"title": string, "summary": string}: a title of at most 8 words and a summary of one or two sentences, using only what the storyteller said (no invented names, dates or places).';
const ANALYSIS_SYSTEM_PROMPT =
  'You read a storyteller\'s spoken memories. Answer JSON {"themes": string[], "people": string[], "places": string[], "years": string[]}: the life themes (short lower-case phrases), and the people, places and years exactly as the storyteller named them. List only what is in the text.';

export interface ConversationsDeps {
  db: Database;
  llm: LanguageModel;
  storage: Pick<ObjectStorage, 'put' | 'delete'>;
  access: Pick<AccessPolicy, 'require'>;
  /** Seconds of media in the bytes, or null when they cannot be read. */
  probeDuration: (media: Buffer, signal?: AbortSignal) => Promise<number | null>;
}

export function createConversationsService(deps: ConversationsDeps) {
  const { db, llm, storage, access } = deps;

  /** The conversation when the caller may do `permission` with it: 404 when not theirs to see, 403 when they lack the role. */
  async function load(callerId: string, id: string, permission: Permission): Promise<ConversationRow> {
    const [row] = await db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
    if (!row) throw notFound('Conversation');
    await access.require(callerId, row.userId, permission, 'Conversation');
    return row;
  }

  const messagesOf = (conversationId: string) =>
    db.select().from(conversationMessages).where(eq(conversationMessages.conversationId, conversationId)).orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id));

  /** The storyteller's own words: the answers, not the interviewer's questions. */
  const answersText = (messages: MessageRow[]) =>
    messages
      .filter((m) => m.role === 'user' && m.content.trim())
      .map((m) => m.content.trim())
      .join('\n\n');

  async function nextQuestion(userId: string, conversationId: string, lastAnswer: string, topic: string | undefined) {
    // A real model reads the recent turns; the offline generator needs only the last answer and topic.
    const history = llm.provider === 'local' ? [{ role: 'user' as const, content: lastAnswer }] : interviewHistory(await messagesOf(conversationId));
    const result = await llm.complete(
      { task: 'interview-question', input: { lastAnswer, topic }, system: INTERVIEWER_SYSTEM_PROMPT, messages: history, maxTokens: 160, temperature: 0.7 },
      { userId, feature: 'conversation:chat' },
    );
    const question = oneQuestion(result.text);
    // A model that answered without a usable single question is replaced by the catalogue, and says so.
    if (question) return { question, model: result.model, provider: result.provider, source: result.provider === 'local' ? 'catalogue' : 'llm' };
    return { question: interviewQuestion({ lastAnswer, topic }), model: 'local-interview-question', provider: 'local', source: 'catalogue' };
  }

  function tally(texts: string[], pick: (text: string) => string[]): Tally[] {
    const counts = new Map<string, Tally>();
    for (const text of texts) {
      const lower = text.toLowerCase();
      for (const name of pick(text)) {
        const key = name.toLowerCase();
        const mentions = lower.split(key).length - 1 || 1;
        const entry = counts.get(key) ?? { name, mentions: 0, conversations: 0 };
        entry.mentions += mentions;
        entry.conversations += 1;
        counts.set(key, entry);
      }
    }
    return [...counts.values()].sort((a, b) => b.mentions - a.mentions || b.conversations - a.conversations || a.name.localeCompare(b.name));
  }

  function offlineAnalysis(texts: string[], now: Date): ConversationAnalysis {
    const themes = new Map<string, Tally>();
    for (const text of texts) {
      for (const { theme, mentions } of findThemes(text)) {
        const entry = themes.get(theme) ?? { name: theme, mentions: 0, conversations: 0 };
        entry.mentions += mentions;
        entry.conversations += 1;
        themes.set(theme, entry);
      }
    }
    return {
      source: 'offline',
      model: 'local-extraction',
      conversationCount: texts.length,
      answerCount: 0,
      wordCount: texts.reduce((n, t) => n + wordCount(t), 0),
      themes: [...themes.values()].sort((a, b) => b.mentions - a.mentions || a.name.localeCompare(b.name)),
      people: tally(texts, (t) => extractMentions(t).people),
      places: tally(texts, (t) => extractMentions(t).places),
      years: tally(texts, (t) => extractMentions(t).years),
      analyzedAt: now.toISOString(),
    };
  }

  async function analyzeTexts(userId: string, texts: string[]): Promise<ConversationAnalysis> {
    const now = new Date();
    const offline = offlineAnalysis(texts, now);
    if (llm.provider === 'local' || texts.every((t) => !t.trim())) return offline;
    try {
      const joined = texts.map((t, i) => `Conversation ${i + 1}:\n${t}`).join('\n\n').slice(0, 60_000);
      const { data, model } = await llm.completeJson(
        { task: 'conversation-analysis', input: { text: joined }, system: ANALYSIS_SYSTEM_PROMPT, messages: [{ role: 'user', content: joined }], maxTokens: 800, temperature: 0 },
        analysisSchema,
        { userId, feature: 'conversation:analyze' },
      );
      const all = texts.join('\n').toLowerCase();
      // Grounding: a person, place or year the text does not contain is dropped, whatever the model said.
      const grounded = (list: (string | number)[]) => [...new Set(list.map((x) => String(x).trim()).filter((x) => x && all.includes(x.toLowerCase())))];
      const named = (list: string[]) => (t: string) => list.filter((x) => t.toLowerCase().includes(x.toLowerCase()));
      const people = grounded(data.people);
      const places = grounded(data.places);
      const years = grounded(data.years);
      const themes = [...new Set(data.themes.map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0 && t.length <= 60))].slice(0, 15);
      return {
        ...offline,
        source: 'llm',
        model,
        // Themes are the model's reading; each is counted once per conversation the model was shown.
        themes: themes.map((name) => ({ name, mentions: 1, conversations: texts.length })),
        people: tally(texts, named(people)),
        places: tally(texts, named(places)),
        years: tally(texts, named(years)),
      };
    } catch (err) {
      // The offline reading is a real analysis too: a failing model falls back to it rather than failing the page.
      if (err instanceof ProviderError) return offline;
      throw err;
    }
  }

  return {
    async chat(userId: string, input: { message: string; sessionId: string; context?: string }) {
      const first = await db.transaction(async (tx) => {
        // Find-or-create of (caller, sessionId) in one statement; xmax = 0 tells a fresh insert apart.
        const conversation = one(
          await tx
            .insert(conversations)
            .values({ userId, sessionId: input.sessionId })
            .onConflictDoUpdate({ target: [conversations.userId, conversations.sessionId], set: { updatedAt: new Date() } })
            .returning({ id: conversations.id, status: conversations.status, title: conversations.title, created: sql<boolean>`(xmax = 0)` }),
        );
        if (conversation.status === 'completed') {
          throw conflict('This conversation is completed; start a new session to keep talking', { details: `conversation ${conversation.id}` });
        }
        const message = one(
          await tx.insert(conversationMessages).values({ conversationId: conversation.id, role: 'user', content: input.message, metadata: input.context ? { context: input.context } : {} }).returning({ id: conversationMessages.id }),
        );
        await tx.update(conversations).set({ turnCount: sql`${conversations.turnCount} + 1`, updatedAt: new Date() }).where(eq(conversations.id, conversation.id));
        return { conversation, userMessageId: message.id };
      });

      const conversationId = first.conversation.id;
      let asked;
      try {
        asked = await nextQuestion(userId, conversationId, input.message, input.context ?? first.conversation.title ?? undefined);
      } catch (err) {
        // The answer is already kept; the client may ask again for the question.
        const failure = providerFailure(err, { what: 'The interviewer' });
        throw new AppError(failure.kind, failure.message, { headers: failure.headers, cause: err, extra: { conversationId, userMessageId: first.userMessageId } });
      }

      const second = await db.transaction(async (tx) => {
        const message = one(
          await tx
            .insert(conversationMessages)
            .values({ conversationId, role: 'assistant', content: asked.question, metadata: { model: asked.model, provider: asked.provider, source: asked.source } })
            .returning({ id: conversationMessages.id }),
        );
        const row = one(
          await tx
            .update(conversations)
            .set({ turnCount: sql`${conversations.turnCount} + 1`, updatedAt: new Date() })
            .where(eq(conversations.id, conversationId))
            .returning({ turnCount: conversations.turnCount }),
        );
        return { messageId: message.id, turnCount: row.turnCount };
      });

      return {
        success: true as const,
        response: asked.question,
        conversationId,
        messageId: second.messageId,
        userMessageId: first.userMessageId,
        sessionId: input.sessionId,
        turnCount: second.turnCount,
        isNewConversation: first.conversation.created,
        model: asked.model,
      };
    },

    async list(userId: string, query: { status?: 'active' | 'completed'; tags?: string[]; limit: number; offset: number }) {
      const where = and(
        eq(conversations.userId, userId),
        query.status ? eq(conversations.status, query.status) : undefined,
        // Every listed tag must be on the conversation (a filter narrows), served by the GIN index.
        query.tags && query.tags.length > 0 ? sql`${conversations.tags} @> ${sql.param(query.tags)}::text[]` : undefined,
      );
      const [rows, [count]] = await Promise.all([
        db.select().from(conversations).where(where).orderBy(desc(conversations.createdAt), desc(conversations.id)).limit(query.limit).offset(query.offset),
        db.select({ total: sql<number>`count(*)::int` }).from(conversations).where(where),
      ]);
      return { conversations: rows.map(toView), total: Number(count?.total ?? 0) };
    },

    async get(userId: string, id: string) {
      const row = await load(userId, id, 'view_stories');
      const messages = await messagesOf(id);
      return { conversation: { ...toView(row), messages: messages.map(toMessage) } };
    },

    async summarize(userId: string, id: string) {
      await load(userId, id, 'edit_stories');
      const text = answersText(await messagesOf(id));
      if (!text) throw conflict('This conversation has no answers to summarize yet');
      let data: z.infer<typeof summarySchema>;
      try {
        ({ data } = await llm.completeJson(
          { task: 'title-summary', input: { text }, system: SUMMARY_SYSTEM_PROMPT, messages: [{ role: 'user', content: text.slice(0, 60_000) }], maxTokens: 300, temperature: 0.3 },
          summarySchema,
          { userId, feature: 'conversation:summarize' },
        ));
      } catch (err) {
        throw providerFailure(err, { what: 'Summarizing the conversation' });
      }
      const title = data.title.replace(/\s+/g, ' ').slice(0, 200);
      const overview = data.summary.replace(/\s+/g, ' ').slice(0, 5000);
      const row = one(await db.update(conversations).set({ title, overview, updatedAt: new Date() }).where(eq(conversations.id, id)).returning());
      return { success: true as const, title, overview, conversation: toView(row) };
    },

    /** active -> completed with completed_at; completing a completed conversation changes nothing (idempotent). */
    async complete(userId: string, id: string) {
      await load(userId, id, 'edit_stories');
      const [changed] = await db
        .update(conversations)
        .set({ status: 'completed', completedAt: sql`now()`, updatedAt: new Date() })
        .where(and(eq(conversations.id, id), eq(conversations.status, 'active')))
        .returning();
      if (changed) return { success: true as const, alreadyCompleted: false, conversation: toView(changed) };
      const [current] = await db.select().from(conversations).where(eq(conversations.id, id));
      if (!current) throw notFound('Conversation');
      return { success: true as const, alreadyCompleted: true, conversation: toView(current) };
    },

    async stats(userId: string) {
      const [totals] = await db
        .select({
          total: sql<number>`count(*)::int`,
          active: sql<number>`(count(*) filter (where ${conversations.status} = 'active'))::int`,
          completed: sql<number>`(count(*) filter (where ${conversations.status} = 'completed'))::int`,
          messages: sql<number>`coalesce(sum(${conversations.turnCount}), 0)::int`,
          durationSeconds: sql<number>`coalesce(sum(${conversations.totalDurationSeconds}), 0)::int`,
          thisMonth: sql<number>`(count(*) filter (where ${conversations.createdAt} >= date_trunc('month', now())))::int`,
          summarized: sql<number>`(count(*) filter (where ${conversations.overview} is not null))::int`,
          lastActivity: sql<Date | null>`max(${conversations.updatedAt})`,
        })
        .from(conversations)
        .where(eq(conversations.userId, userId));
      const [answers] = await db
        .select({
          count: sql<number>`count(*)::int`,
          words: sql<number>`coalesce(sum(coalesce(array_length(regexp_split_to_array(nullif(btrim(${conversationMessages.content}), ''), '\\s+'), 1), 0)), 0)::int`,
          withAudio: sql<number>`(count(*) filter (where ${conversationMessages.audioStorageKey} is not null))::int`,
        })
        .from(conversationMessages)
        .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
        .where(and(eq(conversations.userId, userId), eq(conversationMessages.role, 'user')));
      const topTags = await db.execute<{ tag: string; count: number }>(
        sql`select tag, count(*)::int as count from ${conversations}, unnest(${conversations.tags}) as tag where ${conversations.userId} = ${userId} group by tag order by count desc, tag limit 10`,
      );
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
        topTags: [...topTags].map((r) => ({ tag: r.tag, count: Number(r.count) })),
      };
    },

    async allTags(userId: string) {
      const rows = await db.execute<{ tag: string }>(
        sql`select distinct tag from ${conversations}, unnest(${conversations.tags}) as tag where ${conversations.userId} = ${userId} order by tag`,
      );
      return { tags: [...rows].map((r) => r.tag) };
    },

    async getTags(userId: string, id: string) {
      const row = await load(userId, id, 'view_stories');
      return { conversationId: row.id, tags: row.tags };
    },

    async setTags(userId: string, id: string, tags: string[]) {
      await load(userId, id, 'edit_stories');
      const normalized = normalizeTags(tags);
      if (normalized.length > MAX_TAGS) throw badRequest(`tags: at most ${MAX_TAGS} tags`, { field: 'tags' });
      const row = one(await db.update(conversations).set({ tags: normalized, updatedAt: new Date() }).where(eq(conversations.id, id)).returning());
      return { success: true as const, conversationId: row.id, tags: row.tags };
    },

    /** Themes, people, places and years across the caller's conversations (all, or the ids given). */
    async analyzeAll(userId: string, input: { conversationIds?: string[] }) {
      const ids = input.conversationIds ? [...new Set(input.conversationIds)] : undefined;
      const owned = await db
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.userId, userId), ids ? sql`${conversations.id} = any(${sql.param(ids)}::uuid[])` : undefined))
        .orderBy(desc(conversations.createdAt))
        .limit(200);
      if (ids && owned.length !== ids.length) throw notFound('Conversation');
      const texts: string[] = [];
      let answerCount = 0;
      if (owned.length > 0) {
        const rows = await db
          .select({ conversationId: conversationMessages.conversationId, content: conversationMessages.content })
          .from(conversationMessages)
          .where(and(sql`${conversationMessages.conversationId} = any(${sql.param(owned.map((o) => o.id))}::uuid[])`, eq(conversationMessages.role, 'user')))
          .orderBy(asc(conversationMessages.createdAt));
        const byConversation = new Map<string, string[]>();
        for (const r of rows) {
          if (!r.content.trim()) continue;
          answerCount++;
          byConversation.set(r.conversationId, [...(byConversation.get(r.conversationId) ?? []), r.content.trim()]);
        }
        for (const parts of byConversation.values()) texts.push(parts.join('\n\n'));
      }
      const analysis = await analyzeTexts(userId, texts);
      return { success: true as const, analysis: { ...analysis, conversationCount: owned.length, answerCount } };
    },

    async analyzeOne(userId: string, id: string) {
      await load(userId, id, 'edit_stories');
      const messages = await messagesOf(id);
      const text = answersText(messages);
      const analysis = { ...(await analyzeTexts(userId, text ? [text] : [])), conversationCount: 1, answerCount: messages.filter((m) => m.role === 'user' && m.content.trim()).length };
      const row = one(await db.update(conversations).set({ analysis: { ...analysis }, updatedAt: new Date() }).where(eq(conversations.id, id)).returning());
      return { success: true as const, analysis, conversation: toView(row) };
    },

    async assessQuality(userId: string, target: { conversationId?: string; sessionId?: string }): Promise<{ success: true; conversationId: string; quality: QualityMetrics }> {
      let id = target.conversationId;
      if (!id) {
        const [bySession] = await db
          .select({ id: conversations.id })
          .from(conversations)
          .where(and(eq(conversations.userId, userId), eq(conversations.sessionId, target.sessionId ?? '')));
        if (!bySession) throw notFound('Conversation');
        id = bySession.id;
      }
      await load(userId, id, 'edit_stories');
      const quality = assessQuality(await messagesOf(id));
      await db.update(conversations).set({ qualityMetrics: { ...quality }, updatedAt: new Date() }).where(eq(conversations.id, id));
      return { success: true, conversationId: id, quality };
    },

    /**
     * Store the audio of one turn under a server key and attach it to `messageId` (or to a new answer).
     * Storage that throws answers 502 and nothing is written; a failed write removes the stored object.
     */
    async uploadAudio(
      userId: string,
      input: { conversationId: string; messageId?: string; audio: UploadedAudio; durationSeconds?: number; transcript?: string },
      signal: AbortSignal,
    ) {
      const conversation = await load(userId, input.conversationId, 'edit_stories');
      let target: MessageRow | undefined;
      if (input.messageId) {
        [target] = await db
          .select()
          .from(conversationMessages)
          .where(and(eq(conversationMessages.id, input.messageId), eq(conversationMessages.conversationId, conversation.id)));
        if (!target) throw notFound('Message');
      } else if (conversation.status === 'completed') {
        throw conflict('This conversation is completed; new turns cannot be added');
      }

      const measured = input.durationSeconds ?? (await deps.probeDuration(input.audio.buffer, signal));
      if (measured === null) throw badRequest('audio: the length of this recording could not be read; send duration (seconds) with it', { field: 'audio' });
      const seconds = Math.round(measured);
      if (seconds > MAX_TURN_SECONDS) {
        const shown = `${Math.floor(measured / 60)}:${String(Math.round(measured % 60)).padStart(2, '0')}`;
        throw badRequest(`duration: a conversation turn is at most 5 minutes; this one is ${shown}`, { field: 'duration' });
      }
      if (signal.aborted) throw new AppError('timeout', 'The upload ran out of time');

      const key = newObjectKey(`conversations/${conversation.userId}/${conversation.id}`, input.audio.extension);
      try {
        await storage.put(key, input.audio.buffer, { contentType: input.audio.mimeType, contentLength: input.audio.buffer.length });
      } catch (err) {
        if (err instanceof ProviderError && err.provider === 'none') {
          throw new AppError('unavailable', 'Audio storage is not configured on this server, so the audio was not saved', { cause: err });
        }
        throw new AppError('bad_gateway', 'Saving the audio to storage failed; nothing was saved. Try again.', { cause: err });
      }

      try {
        if (signal.aborted) throw new AppError('timeout', 'The upload ran out of time');
        const saved = await db.transaction(async (tx) => {
          let messageId: string;
          let added = seconds;
          if (target) {
            added = seconds - (target.durationSeconds ?? 0);
            await tx
              .update(conversationMessages)
              .set({
                audioStorageKey: key,
                durationSeconds: seconds,
                ...(target.content.trim() === '' && input.transcript ? { content: input.transcript } : {}),
                metadata: { ...target.metadata, audioType: input.audio.mimeType, audioBytes: input.audio.buffer.length },
              })
              .where(eq(conversationMessages.id, target.id));
            messageId = target.id;
          } else {
            const row = one(
              await tx
                .insert(conversationMessages)
                .values({
                  conversationId: conversation.id,
                  role: 'user',
                  content: input.transcript ?? '',
                  audioStorageKey: key,
                  durationSeconds: seconds,
                  metadata: { audioType: input.audio.mimeType, audioBytes: input.audio.buffer.length, transcriptPending: !input.transcript },
                })
                .returning({ id: conversationMessages.id }),
            );
            messageId = row.id;
          }
          const updated = one(
            await tx
              .update(conversations)
              .set({
                ...(target ? {} : { turnCount: sql`${conversations.turnCount} + 1` }),
                totalDurationSeconds: sql`greatest(0, ${conversations.totalDurationSeconds} + ${added})`,
                updatedAt: new Date(),
              })
              .where(eq(conversations.id, conversation.id))
              .returning({ turnCount: conversations.turnCount, totalDurationSeconds: conversations.totalDurationSeconds }),
          );
          return { messageId, ...updated };
        });
        // The replaced recording of this turn is no longer referenced.
        if (target?.audioStorageKey) await storage.delete(target.audioStorageKey).catch(() => undefined);
        return {
          success: true as const,
          conversationId: conversation.id,
          messageId: saved.messageId,
          audioKey: key,
          durationSeconds: seconds,
          size: input.audio.buffer.length,
          mimeType: input.audio.mimeType,
          turnCount: saved.turnCount,
          totalDurationSeconds: saved.totalDurationSeconds,
        };
      } catch (err) {
        // No orphan: the object is removed when its row could not be written.
        await storage.delete(key).catch(() => undefined);
        throw err;
      }
    },
  };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
