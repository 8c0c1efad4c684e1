// The imports table (CONVENTIONS 7): raw postgres.js, every method taking an optional transaction.
import type { Sql } from 'postgres';
import { one } from '@story/db';
import { isoUtc, type SqlOrTx } from '../sql-fragments';
import type { Candidate } from './story-split';

export interface ImportRow {
  id: string;
  userId: string;
  sourceType: 'file' | 'paste' | 'url';
  fileName: string | null;
  mimeType: string | null;
  fileSizeBytes: number | null;
  storageKey: string | null;
  sourceUrl: string | null;
  title: string | null;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  wordCount: number;
  error: string | null;
  storyId: string | null;
  candidates: Candidate[] | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewImport {
  userId: string;
  sourceType: ImportRow['sourceType'];
  title: string | null;
  fileName?: string | null;
  mimeType?: string | null;
  fileSizeBytes?: number | null;
  storageKey?: string | null;
  sourceUrl?: string | null;
  /** paste: the text is there at once, so the import is completed on insert. */
  extractedText?: string | null;
  wordCount?: number;
}

const columns = (tx: SqlOrTx) => tx`
  i.id, i.user_id as "userId", i.source_type as "sourceType", i.file_name as "fileName", i.mime_type as "mimeType",
  i.file_size_bytes::float8 as "fileSizeBytes", i.storage_key as "storageKey", i.source_url as "sourceUrl", i.title, i.status,
  i.word_count as "wordCount", i.error, i.story_id as "storyId", i.candidates,
  case when i.completed_at is null then null else ${isoUtc(tx, 'i.completed_at')} end as "completedAt",
  ${isoUtc(tx, 'i.created_at')} as "createdAt", ${isoUtc(tx, 'i.updated_at')} as "updatedAt"`;

export function createImportsRepository(sql: Sql) {
  return {
    transaction: <T>(work: (tx: SqlOrTx) => Promise<T>): Promise<T> => sql.begin(work) as Promise<T>,

    async insert(row: NewImport, tx: SqlOrTx = sql): Promise<ImportRow> {
      const done = row.extractedText !== undefined && row.extractedText !== null;
      const { id } = one(
        await tx<{ id: string }[]>`
          insert into imports (user_id, source_type, title, file_name, mime_type, file_size_bytes, storage_key, source_url, extracted_text, word_count, status, completed_at)
          values (${row.userId}, ${row.sourceType}, ${row.title}, ${row.fileName ?? null}, ${row.mimeType ?? null}, ${row.fileSizeBytes ?? null},
                  ${row.storageKey ?? null}, ${row.sourceUrl ?? null}, ${row.extractedText ?? null}, ${row.wordCount ?? 0},
                  ${done ? 'completed' : 'pending'}, ${done ? tx`now()` : null})
          returning id`,
      );
      return one(await tx<ImportRow[]>`select ${columns(tx)} from imports i where i.id = ${id}`);
    },

    /** The caller's own import (imports are private to their owner), locked FOR UPDATE when asked. */
    async findOwned(userId: string, id: string, options: { lock?: boolean } = {}, tx: SqlOrTx = sql): Promise<ImportRow | undefined> {
      const [row] = await tx<ImportRow[]>`
        select ${columns(tx)} from imports i where i.id = ${id} and i.user_id = ${userId}${options.lock ? tx` for update` : tx``}`;
      return row;
    },

    async find(id: string, tx: SqlOrTx = sql): Promise<ImportRow | undefined> {
      const [row] = await tx<ImportRow[]>`select ${columns(tx)} from imports i where i.id = ${id}`;
      return row;
    },

    async extractedText(id: string, tx: SqlOrTx = sql): Promise<string> {
      const [row] = await tx<{ text: string | null }[]>`select extracted_text as text from imports where id = ${id}`;
      return row?.text ?? '';
    },

    async list(userId: string, limit: number, tx: SqlOrTx = sql): Promise<ImportRow[]> {
      return tx<ImportRow[]>`select ${columns(tx)} from imports i where i.user_id = ${userId} order by i.created_at desc, i.id desc limit ${limit}`;
    },

    async markProcessing(id: string, tx: SqlOrTx = sql): Promise<void> {
      await tx`update imports set status = 'processing', error = null, updated_at = now() where id = ${id}`;
    },

    async complete(id: string, result: { text: string; wordCount: number; title: string }, tx: SqlOrTx = sql): Promise<void> {
      await tx`
        update imports set status = 'completed', extracted_text = ${result.text}, word_count = ${result.wordCount},
               title = coalesce(title, ${result.title}), error = null, completed_at = now(), updated_at = now()
         where id = ${id}`;
    },

    /** pending (waiting for another attempt) or failed (given up), with why. */
    async setFailure(id: string, status: 'pending' | 'failed', message: string, onlyFrom?: ImportRow['status'], tx: SqlOrTx = sql): Promise<void> {
      await tx`update imports set status = ${status}, error = ${message}, updated_at = now() where id = ${id}${onlyFrom ? tx` and status = ${onlyFrom}` : tx``}`;
    },

    async setCandidates(id: string, candidates: Candidate[], tx: SqlOrTx = sql): Promise<void> {
      await tx`update imports set candidates = ${JSON.stringify(candidates)}::jsonb, updated_at = now() where id = ${id}`;
    },

    async setStory(id: string, storyId: string, tx: SqlOrTx = sql): Promise<void> {
      await tx`update imports set story_id = ${storyId}, updated_at = now() where id = ${id}`;
    },

    async campaignOwner(campaignId: string, tx: SqlOrTx = sql): Promise<string | null> {
      const [row] = await tx<{ userId: string }[]>`select user_id as "userId" from campaigns where id = ${campaignId}`;
      return row?.userId ?? null;
    },
  };
}

export type ImportsRepository = ReturnType<typeof createImportsRepository>;
