// The SQL of conversations and their messages (CONVENTIONS 7), on Drizzle's builder throughout. Methods
// take plain values and an optional transaction; the service decides what to do with what they return.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { conversationMessages, conversations, one, type Database, type DbOrTx } from '@story/db';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof conversationMessages.$inferSelect;
type ConversationChanges = Partial<Pick<ConversationRow, 'title' | 'overview' | 'tags' | 'analysis' | 'qualityMetrics'>>;

export function createConversationsRepository(db: Database) {
  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    async findById(id: string, tx: DbOrTx = db): Promise<ConversationRow | undefined> {
      const [row] = await tx.select().from(conversations).where(eq(conversations.id, id)).limit(1);
      return row;
    },

    async findIdBySession(userId: string, sessionId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await tx
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.userId, userId), eq(conversations.sessionId, sessionId)));
      return row?.id;
    },

    /** Messages in the order they were said (id breaks ties of one timestamp). */
    messagesOf: (conversationId: string, tx: DbOrTx = db): Promise<MessageRow[]> =>
      tx.select().from(conversationMessages).where(eq(conversationMessages.conversationId, conversationId)).orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id)),

    async findMessage(conversationId: string, messageId: string, tx: DbOrTx = db): Promise<MessageRow | undefined> {
      const [row] = await tx
        .select()
        .from(conversationMessages)
        .where(and(eq(conversationMessages.id, messageId), eq(conversationMessages.conversationId, conversationId)));
      return row;
    },

    /** Find-or-create of (caller, sessionId) in one statement; xmax = 0 tells a fresh insert apart. */
    async upsertBySession(userId: string, sessionId: string, tx: DbOrTx = db) {
      return one(
        await tx
          .insert(conversations)
          .values({ userId, sessionId })
          .onConflictDoUpdate({ target: [conversations.userId, conversations.sessionId], set: { updatedAt: new Date() } })
          .returning({ id: conversations.id, status: conversations.status, title: conversations.title, created: sql<boolean>`(xmax = 0)` }),
      );
    },

    async insertMessage(values: typeof conversationMessages.$inferInsert, tx: DbOrTx = db): Promise<string> {
      return one(await tx.insert(conversationMessages).values(values).returning({ id: conversationMessages.id })).id;
    },

    async updateMessage(id: string, changes: Partial<typeof conversationMessages.$inferInsert>, tx: DbOrTx = db): Promise<void> {
      await tx.update(conversationMessages).set(changes).where(eq(conversationMessages.id, id));
    },

    /** One more turn counted, in place (no read-modify-write). */
    async countTurn(id: string, tx: DbOrTx = db): Promise<number> {
      return one(
        await tx
          .update(conversations)
          .set({ turnCount: sql`${conversations.turnCount} + 1`, updatedAt: new Date() })
          .where(eq(conversations.id, id))
          .returning({ turnCount: conversations.turnCount }),
      ).turnCount;
    },

    /** Seconds of audio added (or taken away, never below 0), and a turn counted when a new answer was added. */
    async addAudio(id: string, change: { addedSeconds: number; newTurn: boolean }, tx: DbOrTx = db) {
      return one(
        await tx
          .update(conversations)
          .set({
            ...(change.newTurn ? { turnCount: sql`${conversations.turnCount} + 1` } : {}),
            totalDurationSeconds: sql`greatest(0, ${conversations.totalDurationSeconds} + ${change.addedSeconds})`,
            updatedAt: new Date(),
          })
          .where(eq(conversations.id, id))
          .returning({ turnCount: conversations.turnCount, totalDurationSeconds: conversations.totalDurationSeconds }),
      );
    },

    async update(id: string, changes: ConversationChanges, tx: DbOrTx = db): Promise<ConversationRow> {
      return one(await tx.update(conversations).set({ ...changes, updatedAt: new Date() }).where(eq(conversations.id, id)).returning());
    },

    /** active -> completed; undefined when it was not active (already completed, or gone). */
    async completeIfActive(id: string, tx: DbOrTx = db): Promise<ConversationRow | undefined> {
      const [changed] = await tx
        .update(conversations)
        .set({ status: 'completed', completedAt: sql`now()`, updatedAt: new Date() })
        .where(and(eq(conversations.id, id), eq(conversations.status, 'active')))
        .returning();
      return changed;
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
      return { rows, total: Number(count?.total ?? 0) };
    },

    async totals(userId: string) {
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
      return totals;
    },

    /** The storyteller's answers over all their conversations: how many, their words, how many carry audio. */
    async answerTotals(userId: string) {
      const [answers] = await db
        .select({
          count: sql<number>`count(*)::int`,
          words: sql<number>`coalesce(sum(coalesce(array_length(regexp_split_to_array(nullif(btrim(${conversationMessages.content}), ''), '\\s+'), 1), 0)), 0)::int`,
          withAudio: sql<number>`(count(*) filter (where ${conversationMessages.audioStorageKey} is not null))::int`,
        })
        .from(conversationMessages)
        .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
        .where(and(eq(conversations.userId, userId), eq(conversationMessages.role, 'user')));
      return answers;
    },

    async topTags(userId: string, limit: number): Promise<{ tag: string; count: number }[]> {
      const rows = await db.execute<{ tag: string; count: number }>(
        sql`select tag, count(*)::int as count from ${conversations}, unnest(${conversations.tags}) as tag where ${conversations.userId} = ${userId} group by tag order by count desc, tag limit ${limit}`,
      );
      return [...rows].map((r) => ({ tag: r.tag, count: Number(r.count) }));
    },

    async distinctTags(userId: string): Promise<string[]> {
      const rows = await db.execute<{ tag: string }>(
        sql`select distinct tag from ${conversations}, unnest(${conversations.tags}) as tag where ${conversations.userId} = ${userId} order by tag`,
      );
      return [...rows].map((r) => r.tag);
    },

    /** The caller's conversation ids (all, or those of `ids` that are theirs), newest first, at most `limit`. */
    async ownedIds(userId: string, ids: string[] | undefined, limit: number): Promise<string[]> {
      const rows = await db
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.userId, userId), ids ? sql`${conversations.id} = any(${sql.param(ids)}::uuid[])` : undefined))
        .orderBy(desc(conversations.createdAt))
        .limit(limit);
      return rows.map((r) => r.id);
    },

    /** The storyteller's answers (role user) of these conversations, oldest first. */
    answersOf: (conversationIds: string[]) =>
      db
        .select({ conversationId: conversationMessages.conversationId, content: conversationMessages.content })
        .from(conversationMessages)
        .where(and(sql`${conversationMessages.conversationId} = any(${sql.param(conversationIds)}::uuid[])`, eq(conversationMessages.role, 'user')))
        .orderBy(asc(conversationMessages.createdAt)),
  };
}

export type ConversationsRepository = ReturnType<typeof createConversationsRepository>;
