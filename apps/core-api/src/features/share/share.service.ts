// GET /api/share/[token]: what a public share link shows, without signing in. The token is looked up
// among recording-audio links first, then story links; an unknown, revoked or expired token (or one whose
// recording has no stored media) is a 404 that says nothing about which. Audio is streamed through
// /api/share/[token]/audio (Range honoured), never through a raw storage URL.
import { AppError, notFound } from '@story/http';
import { dominantDirection, languageOf } from '@story/pdf';
import { isRangeNotSatisfiable, ProviderError, type ByteRange, type ObjectStorage } from '@story/providers';
import type { Sql } from 'postgres';
import { plainText } from '../stories/story-content';
import { createShareRepository } from './share.repository';

const TOKEN = /^[A-Za-z0-9_-]{16,256}$/;
const gone = () => notFound('Shared item');

export function createShareService({ sql, storage }: { sql: Sql; storage: Pick<ObjectStorage, 'get'> }) {
  const repo = createShareRepository(sql);
  return {
    async view(token: string) {
      if (!TOKEN.test(token)) throw gone();
      const audio = await repo.audio(token);
      if (audio) {
        return {
          kind: 'audio' as const,
          share: { expiresAt: audio.expires_at, playCount: audio.play_count },
          recording: {
            id: audio.recording_id,
            title: audio.title,
            duration_seconds: audio.duration_seconds,
            media_type: audio.media_type,
            audio_url: `/api/share/${token}/audio`,
            createdAt: audio.created_at,
          },
        };
      }
      const story = await repo.viewStory(token);
      if (!story) throw gone();
      // The page showing it sets lang and dir from the story's own text, as the downloaded page does.
      const text = `${story.title ?? ''}\n${plainText(story.content ?? '')}`;
      return {
        kind: 'story' as const,
        share: { expiresAt: story.expires_at, viewCount: story.view_count },
        story: { id: story.story_id, title: story.title ?? '', content: story.content ?? '', wordCount: story.word_count, createdAt: story.created_at, lang: languageOf(text), dir: dominantDirection(text) },
      };
    },

    /** The shared recording's media; a play is counted when the stream starts at its beginning. */
    async audio(token: string, range?: ByteRange) {
      if (!TOKEN.test(token)) throw gone();
      const audio = await repo.audio(token);
      if (!audio?.storage_key) throw gone();
      const startsAtZero = !range || ('start' in range && range.start === 0);
      try {
        const object = await storage.get(audio.storage_key, range);
        if (startsAtZero) await repo.countPlay(token);
        return { object, contentType: audio.mime_type ?? undefined };
      } catch (err) {
        if (isRangeNotSatisfiable(err)) throw new AppError('range_not_satisfiable', 'The requested range is not satisfiable', audio.size === null ? {} : { headers: { 'Content-Range': `bytes */${audio.size}` } });
        if (err instanceof ProviderError && err.kind === 'not_found') throw gone();
        throw new AppError('bad_gateway', 'The shared audio could not be read from storage', { cause: err });
      }
    },
  };
}

export type ShareService = ReturnType<typeof createShareService>;
