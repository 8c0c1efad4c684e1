// The rows the `recording.process` job reads and writes (CONVENTIONS 7): the recording's processing state,
// raw postgres.js. Timestamps the client shows are zone-less UTC (`now() at time zone 'utc'`), like the
// columns of the recordings table.
import type { Sql } from 'postgres';

export interface RecordingForJob {
  id: string;
  userId: string;
  storageKey: string | null;
  mimeType: string | null;
  durationSeconds: number | null;
  hasWaveform: boolean;
  /** The owner's user_voice_settings.preferred_language, when they have saved voice settings. */
  preferredLanguage: string | null;
}

export interface TranscriptResult {
  text: string;
  provider: string;
  words?: unknown[] | null;
  durationSeconds: number;
  /** The model that made it, when the provider names one (transcript_model). */
  model?: string;
}

export function createRecordingJobsRepository(sql: Sql) {
  return {
    async forJob(recordingId: string): Promise<RecordingForJob | undefined> {
      const [rec] = await sql<RecordingForJob[]>`
        select r.id, r.user_id as "userId", r.storage_key as "storageKey", r.mime_type as "mimeType", r.duration_seconds as "durationSeconds",
               r.waveform_data is not null as "hasWaveform", v.preferred_language as "preferredLanguage"
          from recordings r left join user_voice_settings v on v.user_id = r.user_id
         where r.id = ${recordingId}`;
      return rec;
    },

    /** What the probe found; a duration or waveform already stored (from the client) is kept. */
    async saveAnalysis(id: string, a: { durationSeconds: number | null; waveform: number[] | null; hasVideo: boolean }): Promise<void> {
      await sql`
        update recordings set
               duration_seconds = coalesce(duration_seconds, ${a.durationSeconds === null ? null : Math.round(a.durationSeconds)}),
               waveform_data = coalesce(${a.waveform}::real[], waveform_data),
               media_type = case when ${a.hasVideo} then 'video' else media_type end,
               updated_at = now()
         where id = ${id}`;
    },

    async markProcessing(id: string): Promise<void> {
      await sql`update recordings set transcript_status = 'processing', updated_at = now() where id = ${id}`;
    },

    async saveTranscript(id: string, result: TranscriptResult): Promise<void> {
      await sql`
        update recordings set transcript = ${result.text}, transcript_source = ${result.provider}, transcript_status = 'done',
               transcript_error = null, transcript_updated_at = now() at time zone 'utc',
               transcript_words = ${result.words ? JSON.stringify(result.words) : null}::jsonb, transcript_model = ${result.model ?? null},
               duration_seconds = coalesce(duration_seconds, ${Math.round(result.durationSeconds) || null}), updated_at = now()
         where id = ${id}`;
    },

    async markFailed(id: string, message: string): Promise<void> {
      await sql`
        update recordings set transcript_status = 'failed', transcript_error = ${message}, transcript_updated_at = now() at time zone 'utc', updated_at = now()
         where id = ${id}`;
    },

    /** Waiting for another attempt: pending again, with why the last one failed. */
    async markRetrying(id: string, message: string): Promise<void> {
      await sql`update recordings set transcript_status = 'pending', transcript_error = ${message}, updated_at = now() where id = ${id}`;
    },

    /** Its worker died mid-transcription: back to pending (only if it was left processing). */
    async resetProcessing(id: string): Promise<void> {
      await sql`update recordings set transcript_status = 'pending', updated_at = now() where id = ${id} and transcript_status = 'processing'`;
    },
  };
}
