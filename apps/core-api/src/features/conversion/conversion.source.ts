// Loading a conversion source server-side (owner only: anyone else gets 404) as plain text, with the
// segments and word timings the provenance map needs. A source that already became a story is a 409
// carrying that story's id.
import type { Sql, TransactionSql } from 'postgres';
import type { TranscriptWord } from '@story/db';
import { AppError, notFound } from '@story/http';
import type { SourceSegment } from './provenance';

export type SourceType = 'recording' | 'conversation';

export interface ConversionSource {
  type: SourceType;
  id: string;
  userId: string;
  campaignId: string | null;
  title: string | null;
  text: string;
  words: TranscriptWord[] | null;
  segments: SourceSegment[];
}

const alreadyConverted = (storyId: string) =>
  new AppError('conflict', 'This source has already been turned into a story', { code: 'already_converted', extra: { storyId } });

/** 409 when the source already has a story (checked again under lock inside the insert transaction). */
export async function assertNotConverted(tx: Sql | TransactionSql, type: SourceType, id: string, lock = false): Promise<void> {
  if (type === 'recording') {
    const [row] = await tx<{ storyId: string | null }[]>`select story_id as "storyId" from recordings where id = ${id} ${lock ? tx`for update` : tx``}`;
    if (row?.storyId) throw alreadyConverted(row.storyId);
  }
  const [conversion] = await tx<{ storyId: string }[]>`select story_id as "storyId" from story_conversions where source_type = ${type} and source_id = ${id}`;
  if (conversion) throw alreadyConverted(conversion.storyId);
}

export async function loadSource(sql: Sql, callerId: string, type: SourceType, id: string): Promise<ConversionSource> {
  if (type === 'recording') {
    const [rec] = await sql<{ userId: string; campaignId: string | null; title: string; transcript: string | null; words: TranscriptWord[] | null; source: string | null }[]>`
      select user_id as "userId", campaign_id as "campaignId", title, transcript, transcript_words as words, transcript_source as source
        from recordings where id = ${id}`;
    if (!rec || rec.userId !== callerId) throw notFound('Recording');
    await assertNotConverted(sql, type, id);
    const text = (rec.transcript ?? '').trim();
    // Word timings belong to the server transcript only; a browser caption has none.
    const words = rec.source && rec.source !== 'browser' ? rec.words : null;
    return { type, id, userId: rec.userId, campaignId: rec.campaignId, title: rec.title, text, words, segments: [{ start: 0, end: text.length }] };
  }
  const [conv] = await sql<{ userId: string; campaignId: string | null; title: string | null }[]>`
    select user_id as "userId", campaign_id as "campaignId", title from conversations where id = ${id}`;
  if (!conv || conv.userId !== callerId) throw notFound('Conversation');
  await assertNotConverted(sql, type, id);
  // The storyteller's own turns are the source; the interviewer's questions are not memories.
  const turns = await sql<{ id: string; content: string }[]>`
    select id, content from conversation_messages where conversation_id = ${id} and role = 'user' order by created_at, id`;
  const segments: SourceSegment[] = [];
  let text = '';
  for (const turn of turns) {
    const content = turn.content.trim();
    if (!content) continue;
    if (text) text += '\n\n';
    segments.push({ start: text.length, end: text.length + content.length, messageId: turn.id });
    text += content;
  }
  return { type, id, userId: conv.userId, campaignId: conv.campaignId, title: conv.title, text, words: null, segments };
}
