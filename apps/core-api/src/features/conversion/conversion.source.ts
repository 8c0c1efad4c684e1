// Loading a conversion source server-side (owner only: anyone else gets 404) as plain text, with the
// segments and word timings the provenance map needs. A source that already became a story is a 409
// carrying that story's id.
import type { Sql, TransactionSql } from 'postgres';
import type { TranscriptWord } from '@story/db';
import { AppError, notFound } from '@story/http';
import { createConversionRepository, type SourceType } from './conversion.repository';
import type { SourceSegment } from './provenance';

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
  const repo = createConversionRepository(tx);
  if (type === 'recording') {
    const storyId = await repo.recordingStoryId(id, lock);
    if (storyId) throw alreadyConverted(storyId);
  }
  const converted = await repo.conversionStoryId(type, id);
  if (converted) throw alreadyConverted(converted);
}

export async function loadSource(sql: Sql, callerId: string, type: SourceType, id: string): Promise<ConversionSource> {
  const repo = createConversionRepository(sql);
  if (type === 'recording') {
    const rec = await repo.recording(id);
    if (!rec || rec.userId !== callerId) throw notFound('Recording');
    await assertNotConverted(sql, type, id);
    const text = (rec.transcript ?? '').trim();
    // Word timings belong to the server transcript only; a browser caption has none.
    const words = rec.source && rec.source !== 'browser' ? rec.words : null;
    return { type, id, userId: rec.userId, campaignId: rec.campaignId, title: rec.title, text, words, segments: [{ start: 0, end: text.length }] };
  }
  const conv = await repo.conversation(id);
  if (!conv || conv.userId !== callerId) throw notFound('Conversation');
  await assertNotConverted(sql, type, id);
  // The storyteller's own turns are the source; the interviewer's questions are not memories.
  const turns = await repo.answers(id);
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
