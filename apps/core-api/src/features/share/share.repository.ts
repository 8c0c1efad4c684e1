// The SQL of public share tokens, on postgres.js. Two tables hold them: audio_shares.token (a recording's
// audio, POST /api/audio/[fileId]/share) and story_shares.share_id (a story, POST /api/stories/[id]/share).
// A link is live while it is neither revoked nor past expires_at; the counting statements check that in
// the same statement that counts, so a link revoked a moment ago is never counted or served.
import type { Sql } from 'postgres';
import { isoUtc } from '../sql-fragments';

export interface SharedRecording {
  recording_id: string;
  title: string;
  duration_seconds: number | null;
  media_type: string;
  mime_type: string | null;
  storage_key: string | null;
  size: number | null;
  created_at: string;
  expires_at: string | null;
  play_count: number;
}

export interface SharedStory {
  story_id: string;
  title: string | null;
  content: string | null;
  word_count: number;
  created_at: string;
  expires_at: string | null;
  view_count: number;
}

const LIVE = (sql: Sql) => sql`revoked_at is null and (expires_at is null or expires_at > now())`;

export function createShareRepository(sql: Sql) {
  return {
    async audio(token: string): Promise<SharedRecording | undefined> {
      const [row] = await sql<SharedRecording[]>`
        select r.id as recording_id, r.title, r.duration_seconds, r.media_type, r.mime_type, r.storage_key,
               r.original_file_size_bytes::float8 as size, ${isoUtc(sql, 'r.created_at')} as created_at,
               ${isoUtc(sql, 's.expires_at')} as expires_at, s.play_count
        from audio_shares s join recordings r on r.id = s.recording_id
        where s.token = ${token} and ${LIVE(sql)} and r.status = 'completed'`;
      return row;
    },

    async countPlay(token: string): Promise<boolean> {
      return (await sql`update audio_shares set play_count = play_count + 1 where token = ${token} and ${LIVE(sql)} returning 1`).length > 0;
    },

    /** Counts the view in the statement that finds the live link. */
    async viewStory(shareId: string): Promise<SharedStory | undefined> {
      const [row] = await sql<SharedStory[]>`
        with counted as (
          update story_shares set view_count = view_count + 1, last_viewed_at = now()
          where share_id = ${shareId} and ${LIVE(sql)}
          returning story_id, expires_at, view_count
        )
        select st.id as story_id, coalesce(st.title, st.prompt) as title, coalesce(st.content, st.response_text) as content,
               st.word_count, ${isoUtc(sql, 'st.created_at')} as created_at, ${isoUtc(sql, 'c.expires_at')} as expires_at, c.view_count
        from counted c join stories st on st.id = c.story_id`;
      return row;
    },
  };
}
