// The SQL of recordings (CONVENTIONS 7), raw postgres.js: rows in the service's camelCase shape, the
// library list and its statistics. Methods take plain values and an optional transaction.
import type { Sql } from 'postgres';
import { one } from '@story/db';
import type { SqlOrTx } from '../sql-fragments';

export interface RecordingRow {
  id: string;
  userId: string;
  campaignId: string | null;
  title: string;
  description: string | null;
  transcript: string | null;
  aiSummary: string | null;
  durationSeconds: number | null;
  audioUrl: string | null;
  storageKey: string | null;
  mimeType: string | null;
  waveformData: number[] | null;
  tags: string[];
  status: string;
  mediaType: string;
  originalFileSizeBytes: number | null;
  transcriptStatus: string | null;
  transcriptSource: string | null;
  transcriptError: string | null;
  transcriptModel: string | null;
  transcriptUpdatedAt: Date | string | null;
  storyId: string | null;
  trialSessionId: string | null;
  createdAt: Date | string;
}

/** The fields of a new row (stored, or kept to show a failed upload). */
export interface NewRecording {
  userId: string;
  campaignId: string | null;
  title: string;
  description: string | null;
  transcript: string | null;
  durationSeconds: number | null;
  mimeType: string;
  mediaType: string;
  sizeBytes: number;
  transcriptSource: string | null;
  trialSessionId: string | null;
  /** Peaks computed on upload (spec 000 Recording fields: waveform_data "generated on upload"), or null. */
  waveformData?: number[] | null;
}

export function createRecordingsRepository(sql: Sql) {
  const columns = (q: SqlOrTx) => q`
    id, user_id as "userId", campaign_id as "campaignId", title, description, transcript, ai_summary as "aiSummary",
    duration_seconds as "durationSeconds", audio_url as "audioUrl", storage_key as "storageKey", mime_type as "mimeType",
    waveform_data as "waveformData", tags, status, media_type as "mediaType", original_file_size_bytes::float8 as "originalFileSizeBytes",
    transcript_status as "transcriptStatus", transcript_source as "transcriptSource", transcript_error as "transcriptError",
    transcript_model as "transcriptModel", transcript_updated_at as "transcriptUpdatedAt", story_id as "storyId", trial_session_id as "trialSessionId", created_at as "createdAt"`;

  return {
    transaction: <T>(work: (tx: SqlOrTx) => Promise<T>): Promise<T> => sql.begin(work) as Promise<T>,

    async findById(id: string, tx: SqlOrTx = sql): Promise<RecordingRow | undefined> {
      const [row] = await tx<RecordingRow[]>`select ${columns(tx)} from recordings where id = ${id}`;
      return row;
    },

    /** The owner's recording stored under this key (a direct upload registered before). */
    async findIdByStorageKey(userId: string, storageKey: string, tx: SqlOrTx = sql): Promise<string | undefined> {
      const [existing] = await tx<{ id: string }[]>`select id from recordings where storage_key = ${storageKey} and user_id = ${userId}`;
      return existing?.id;
    },

    async isCampaignOf(campaignId: string, userId: string, tx: SqlOrTx = sql): Promise<boolean> {
      const [row] = await tx`select 1 from campaigns where id = ${campaignId} and user_id = ${userId}`;
      return row !== undefined;
    },

    /** Seconds of the owner's stored recordings (what the voice minutes allowance counts). */
    async storedSeconds(userId: string, tx: SqlOrTx = sql): Promise<number> {
      const [used] = await tx<{ seconds: number }[]>`select coalesce(sum(duration_seconds), 0)::int as seconds from recordings where user_id = ${userId} and status = 'completed'`;
      return used?.seconds ?? 0;
    },

    /** A stored upload: status completed, transcription pending. */
    /** The id is chosen by the caller, so the row is written with its audio URL in one statement. */
    async insertStored(r: NewRecording & { id: string; audioUrl: string; storageKey: string; tags: string[] }, tx: SqlOrTx = sql): Promise<RecordingRow> {
      return one(
        await tx<RecordingRow[]>`
          insert into recordings (id, user_id, campaign_id, title, description, transcript, duration_seconds, storage_key, audio_url, mime_type,
                                  status, media_type, original_file_size_bytes, transcript_status, transcript_source, trial_session_id, tags, waveform_data)
          values (${r.id}, ${r.userId}, ${r.campaignId}, ${r.title}, ${r.description},
                  ${r.transcript}, ${r.durationSeconds}, ${r.storageKey}, ${r.audioUrl}, ${r.mimeType},
                  'completed', ${r.mediaType}, ${r.sizeBytes}, 'pending', ${r.transcriptSource}, ${r.trialSessionId},
                  ${r.tags}, ${r.waveformData ?? null}::real[])
          returning ${columns(tx)}`,
      );
    },

    /** A row kept to show a failed upload (nothing stored); returns its id. */
    async insertFailed(r: NewRecording & { transcriptStatus: string | null }, tx: SqlOrTx = sql): Promise<string> {
      const rows = await tx<{ id: string }[]>`
        insert into recordings (user_id, campaign_id, title, description, transcript, duration_seconds, mime_type, status, media_type,
                                original_file_size_bytes, transcript_status, transcript_source, trial_session_id)
        values (${r.userId}, ${r.campaignId}, ${r.title}, ${r.description}, ${r.transcript},
                ${r.durationSeconds}, ${r.mimeType}, 'upload_failed', ${r.mediaType},
                ${r.sizeBytes}, ${r.transcriptStatus}, ${r.transcriptSource}, ${r.trialSessionId})
        returning id`;
      return one(rows).id;
    },

    list: (userId: string, q: { campaignId?: string; pattern: string | null; tags?: string[]; limit: number }, tx: SqlOrTx = sql) =>
      tx<RecordingRow[]>`
        select ${columns(tx)} from recordings
         where user_id = ${userId}
           ${q.campaignId ? tx`and campaign_id = ${q.campaignId}` : tx``}
           ${q.pattern ? tx`and (title ilike ${q.pattern} or transcript ilike ${q.pattern})` : tx``}
           ${q.tags && q.tags.length > 0 ? tx`and tags && ${q.tags}::text[]` : tx``}
         order by created_at desc
         limit ${q.limit}`,

    async delete(id: string, tx: SqlOrTx = sql): Promise<void> {
      await tx`delete from recordings where id = ${id}`;
    },

    async stats(userId: string, tx: SqlOrTx = sql): Promise<Record<string, number> | undefined> {
      const [row] = await tx<Record<string, number>[]>`
        select count(*)::int as "totalRecordings",
               coalesce(sum(duration_seconds), 0)::int as "totalDurationSeconds",
               coalesce(sum(original_file_size_bytes), 0)::float8 as "totalSizeBytes",
               count(*) filter (where media_type = 'video')::int as "videoCount",
               count(*) filter (where media_type = 'audio')::int as "audioCount",
               count(*) filter (where transcript_status = 'done')::int as "transcribedCount",
               count(*) filter (where transcript_status in ('pending', 'processing'))::int as "transcribingCount",
               count(*) filter (where transcript_status = 'failed')::int as "transcriptionFailedCount",
               count(*) filter (where story_id is not null)::int as "convertedCount",
               count(*) filter (where status = 'upload_failed')::int as "uploadFailedCount"
          from recordings where user_id = ${userId}`;
      return row;
    },

    async distinctTags(userId: string, tx: SqlOrTx = sql): Promise<string[]> {
      const rows = await tx<{ tag: string }[]>`select distinct unnest(tags) as tag from recordings where user_id = ${userId} order by 1`;
      return rows.map((r) => r.tag);
    },

    async setTags(id: string, tags: string[], tx: SqlOrTx = sql): Promise<RecordingRow | undefined> {
      const [updated] = await tx<RecordingRow[]>`update recordings set tags = ${tags}, updated_at = now() where id = ${id} returning ${columns(tx)}`;
      return updated;
    },

    /** Back to pending for a new transcription (one already processing stays processing). */
    async resetTranscript(id: string, tx: SqlOrTx = sql): Promise<RecordingRow | undefined> {
      const [updated] = await tx<RecordingRow[]>`
        update recordings set transcript_status = case when transcript_status = 'processing' then 'processing' else 'pending' end,
               transcript_error = null, updated_at = now()
         where id = ${id} returning ${columns(tx)}`;
      return updated;
    },
  };
}
