// Recordings: uploaded audio and video with their transcript state (spec 000 "Recording"), the
// raw material that conversion turns into stories. Zone-less timestamps, as spec 000 Memories rule 2 says.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, check, index, integer, jsonb, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { campaigns } from './campaigns';
import { stories } from './stories';
import { createdAtNoTz, id, oneOf, updatedAtNoTz } from './_columns';

export const RECORDING_STATUSES = ['completed', 'upload_failed'] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];
export const MEDIA_TYPES = ['audio', 'video'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
export const TRANSCRIPT_STATUSES = ['pending', 'processing', 'done', 'failed'] as const;
export type TranscriptStatus = (typeof TRANSCRIPT_STATUSES)[number];
/** 'browser' for the live caption, else the provider's real name (CONTRACTS §4). */
export const TRANSCRIPT_SOURCES = ['browser', 'google', 'deepgram', 'local'] as const;
export type TranscriptSource = (typeof TRANSCRIPT_SOURCES)[number];

/** One recognised word with its timing, as the speech-to-text provider reports it. */
export interface TranscriptWord {
  word: string;
  start: number;
  end: number;
  confidence?: number;
  speaker?: number;
}

export const recordings = pgTable(
  'recordings',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Optional: a recording may be made outside any campaign, and outlives the campaign's deletion. */
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    title: text('title').notNull().default('Untitled recording'),
    description: text('description'),
    /** Replaced by the server transcript when it lands; the browser caption until then. */
    transcript: text('transcript'),
    aiSummary: text('ai_summary'),
    durationSeconds: integer('duration_seconds'),
    /** Object key in storage; null only for upload_failed rows (storage wholly unconfigured). */
    storageKey: text('storage_key'),
    /** API field audio_url: the app's own streaming route for the object, never a raw bucket URL. */
    audioUrl: text('audio_url'),
    mimeType: text('mime_type'),
    /** Peak amplitudes computed on upload, one per bucket, for the waveform view. */
    waveformData: real('waveform_data').array(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    status: text('status').$type<RecordingStatus>().notNull().default('completed'),
    mediaType: text('media_type').$type<MediaType>().notNull().default('audio'),
    /** bigint: video can pass the 2 GB an integer holds (the API still shows a plain number). */
    originalFileSizeBytes: bigint('original_file_size_bytes', { mode: 'number' }),
    /** Null means not tracked (rows that pre-date tracking), so the page does not poll for them. */
    transcriptStatus: text('transcript_status').$type<TranscriptStatus>(),
    transcriptSource: text('transcript_source').$type<TranscriptSource>(),
    transcriptError: text('transcript_error'),
    transcriptUpdatedAt: timestamp('transcript_updated_at', { withTimezone: false, mode: 'date' }),
    /** Word timings of the server transcript; null for browser captions. The local recogniser times pieces of speech: each word carries its piece's seconds. */
    transcriptWords: jsonb('transcript_words').$type<TranscriptWord[]>(),
    /** The model that made the server transcript when the provider names it (local: moonshine-base, moonshine-tiny). */
    transcriptModel: text('transcript_model'),
    /** Set when converted; story_conversions keeps the audit row, this is the quick "already converted" flag. */
    storyId: uuid('story_id').references((): AnyPgColumn => stories.id, { onDelete: 'set null' }),
    trialSessionId: text('trial_session_id'),
    createdAt: createdAtNoTz(),
    updatedAt: updatedAtNoTz(),
  },
  (t) => [
    // The list, the stats and the memories merge all read "this user's, newest first".
    // nullsFirst: drizzle's .desc() alone emits DESC NULLS LAST, which a plain ORDER BY ... DESC (NULLS FIRST)
    // cannot walk, so the planner would sort. Every descending index in these files says nullsFirst for that reason.
    index('recordings_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    // The memories filters Recordings and Videos split on media_type.
    index('recordings_user_media_created_idx').on(t.userId, t.mediaType, t.createdAt.desc().nullsFirst()),
    // Memories merge and its keyset cursor (spec 000 Memories and archive 1): one storyteller's playable
    // recordings of one media type in the page's order, the zone-less time read as UTC (Memories rule 2) with
    // the id as tie-break. The trailing created_at lets PostgreSQL answer from the index alone (an index-only
    // scan cannot recompute an expression without its column); deep pages read thousands of entries, so heap
    // visits would dominate.
    index('recordings_memories_idx')
      .on(t.userId, t.mediaType, sql`(created_at AT TIME ZONE 'UTC') DESC`, sql`id DESC`, t.createdAt)
      .where(sql`status = 'completed'`),
    index('recordings_campaign_id_idx').on(t.campaignId),
    index('recordings_story_id_idx').on(t.storyId),
    index('recordings_trial_session_id_idx').on(t.trialSessionId).where(sql`trial_session_id IS NOT NULL`),
    // GET /api/recordings?tags=a,b filters with tags && array[...].
    index('recordings_tags_idx').using('gin', t.tags),
    check('recordings_status_check', oneOf('status', RECORDING_STATUSES)),
    check('recordings_media_type_check', oneOf('media_type', MEDIA_TYPES)),
    check('recordings_transcript_status_check', sql`transcript_status IS NULL OR ${oneOf('transcript_status', TRANSCRIPT_STATUSES)}`),
    check('recordings_transcript_source_check', sql`transcript_source IS NULL OR ${oneOf('transcript_source', TRANSCRIPT_SOURCES)}`),
    check('recordings_storage_key_check', sql`status = 'upload_failed' OR storage_key IS NOT NULL`),
    check(
      'recordings_sizes_check',
      sql`(duration_seconds IS NULL OR duration_seconds >= 0) AND (original_file_size_bytes IS NULL OR original_file_size_bytes >= 0)`,
    ),
  ],
);
