// The SQL of story conversion (CONVENTIONS 7), raw postgres.js: the sources (a recording's transcript, a
// conversation's answers), the conversion record, and the story it makes. Created over the pool or over
// the caller's transaction.
import { one, type TranscriptWord } from '@story/db';
import type { SqlOrTx } from '../sql-fragments';

/** What a story is converted from (POST /api/stories/convert `sourceType`, spec 000 Stories). */
export type SourceType = 'recording' | 'conversation';

export interface ConvertedStory {
  userId: string;
  campaignId: string | null;
  title: string;
  content: string;
  metadata: Record<string, unknown>;
  aiEnhanced: boolean;
  sourceType: SourceType;
  sourceId: string;
  wordCount: number;
  provenance: Record<string, unknown>;
}

export interface ConversionRecord {
  storyId: string;
  userId: string;
  sourceType: SourceType;
  sourceId: string;
  readiness: string;
  sourceWordCount: number;
  assessment: unknown;
  faithfulness: unknown;
  aiModel: string;
}

export function createConversionRepository(sql: SqlOrTx) {
  return {
    /** The story a recording became (recordings.story_id), the row locked when asked. */
    async recordingStoryId(recordingId: string, lock = false): Promise<string | null | undefined> {
      const [row] = await sql<{ storyId: string | null }[]>`select story_id as "storyId" from recordings where id = ${recordingId} ${lock ? sql`for update` : sql``}`;
      return row?.storyId;
    },

    /** The story a source became, from its conversion record. */
    async conversionStoryId(type: SourceType, sourceId: string): Promise<string | undefined> {
      const [conversion] = await sql<{ storyId: string }[]>`select story_id as "storyId" from story_conversions where source_type = ${type} and source_id = ${sourceId}`;
      return conversion?.storyId;
    },

    async recording(id: string) {
      const [rec] = await sql<{ userId: string; campaignId: string | null; title: string; transcript: string | null; words: TranscriptWord[] | null; source: string | null }[]>`
        select user_id as "userId", campaign_id as "campaignId", title, transcript, transcript_words as words, transcript_source as source
          from recordings where id = ${id}`;
      return rec;
    },

    async conversation(id: string) {
      const [conv] = await sql<{ userId: string; campaignId: string | null; title: string | null }[]>`
        select user_id as "userId", campaign_id as "campaignId", title from conversations where id = ${id}`;
      return conv;
    },

    /** The storyteller's own turns of a conversation, in the order said. */
    answers: (conversationId: string) =>
      sql<{ id: string; content: string }[]>`
        select id, content from conversation_messages where conversation_id = ${conversationId} and role = 'user' order by created_at, id`,

    async insertStory(s: ConvertedStory): Promise<string> {
      const story = one(
        await sql<{ id: string }[]>`
          insert into stories (user_id, campaign_id, title, type, content, metadata, ai_enhanced, source_recording_ids, source_conversation_ids, word_count, provenance)
          values (${s.userId}, ${s.campaignId}, ${s.title}, 'story', ${s.content},
                  ${JSON.stringify(s.metadata)}::jsonb, ${s.aiEnhanced},
                  ${s.sourceType === 'recording' ? [s.sourceId] : []}::uuid[], ${s.sourceType === 'conversation' ? [s.sourceId] : []}::uuid[],
                  ${s.wordCount}, ${JSON.stringify(s.provenance)}::jsonb)
          returning id`,
      );
      return story.id;
    },

    async linkRecording(recordingId: string, storyId: string): Promise<void> {
      await sql`update recordings set story_id = ${storyId}, updated_at = now() where id = ${recordingId}`;
    },

    async insertConversion(c: ConversionRecord): Promise<void> {
      await sql`
        insert into story_conversions (story_id, user_id, source_type, source_id, readiness, source_word_count, assessment, faithfulness, ai_model)
        values (${c.storyId}, ${c.userId}, ${c.sourceType}, ${c.sourceId}, ${c.readiness}, ${c.sourceWordCount},
                ${JSON.stringify(c.assessment)}::jsonb, ${JSON.stringify(c.faithfulness)}::jsonb, ${c.aiModel})`;
    },

    async newestCampaignBook(userId: string, campaignId: string): Promise<string | undefined> {
      const [book] = await sql<{ id: string }[]>`select id from books where user_id = ${userId} and campaign_id = ${campaignId} order by created_at desc limit 1`;
      return book?.id;
    },

    async bookOwner(bookId: string): Promise<string | undefined> {
      const [book] = await sql<{ userId: string }[]>`select user_id as "userId" from books where id = ${bookId}`;
      return book?.userId;
    },
  };
}
