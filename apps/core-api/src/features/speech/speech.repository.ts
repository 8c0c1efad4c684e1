// What POST /api/transcribe reads of the caller (CONVENTIONS 7): the language their voice settings name,
// which tells the English-only local recogniser what it would hear (CONTRACTS §4).
import type { Sql } from 'postgres';

export function createSpeechRepository(sql: Sql) {
  return {
    /** user_voice_settings.preferred_language, or null when the caller has no voice settings row. */
    async preferredLanguage(userId: string): Promise<string | null> {
      const [row] = await sql<{ language: string }[]>`select preferred_language as language from user_voice_settings where user_id = ${userId}`;
      return row?.language ?? null;
    },
  };
}
