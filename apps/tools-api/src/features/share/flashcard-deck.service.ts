// PATCH and DELETE /api/flashcards/[shareCode] (spec 002 tool-specific routes): the deck's owner renames
// it, describes it, or makes it public or private; or deletes it. Deleting is a soft delete of the deck
// that takes its responses, collection entries and saved copies with it, in one transaction.
import type postgres from 'postgres';
import { one } from '@story/db';
import type { ToolsCaller } from '../../shared/caller';
import { toIso } from '../../shared/dates';
import { toolsError } from '../../shared/errors';
import { jsonb } from '../responses/pg-values';
import { canSee, managesContent } from '../../shared/visibility';
import { findLiveContent, type ContentAccessRow } from './content-access';

export interface DeckUpdate {
  sessionId?: string;
  deckName?: string;
  description?: string | null;
  isPublic?: boolean;
}

export interface DeckView {
  id: string;
  shareCode: string;
  title: string;
  deckName: string;
  description: string | null;
  isPublic: boolean;
  shareType: string;
  cardCount: number;
  updatedAt: string;
}

const cardsOf = (content: Record<string, unknown>) => (Array.isArray(content['cards']) ? content['cards'].length : 0);

export function createFlashcardDeckService({ sql }: { sql: postgres.Sql }) {
  /** The deck for its owner: someone else's visible deck is 403, an invisible one 404 (never confirm it exists). */
  async function ownedDeck(idOrShareCode: string, caller: ToolsCaller, sessionId: string | undefined): Promise<ContentAccessRow> {
    if (sessionId !== undefined && sessionId !== caller.sessionId) throw toolsError.accessDenied('sessionId does not match X-Session-ID');
    const row = await findLiveContent(sql, 'flashcards', idOrShareCode);
    if (!row || !canSee(row, caller)) throw toolsError.notFound('Deck');
    if (!managesContent(row, caller)) throw toolsError.accessDenied('Only the deck’s owner can change it');
    return row;
  }

  return {
    async update(idOrShareCode: string, input: DeckUpdate, caller: ToolsCaller): Promise<DeckView> {
      if (input.deckName === undefined && input.description === undefined && input.isPublic === undefined) {
        throw toolsError.invalidInput('deckName', 'Send at least one of deckName, description or isPublic');
      }
      const row = await ownedDeck(idOrShareCode, caller, input.sessionId);
      const patch: Record<string, unknown> = {};
      if (input.deckName !== undefined) Object.assign(patch, { title: input.deckName, deckName: input.deckName });
      if (input.description !== undefined) patch['description'] = input.description;
      // An expiring link stays expiring when made public again; private always wins.
      const shareType = input.isPublic === undefined ? row.share_type : input.isPublic ? (row.share_type === 'private' ? 'public' : row.share_type) : 'private';
      const updated = one(
        await sql<{ id: string; share_code: string; title: string | null; content: Record<string, unknown>; is_public: boolean; share_type: string; updated_at: string }[]>`
          update tools_flashcards set
            content = content || ${jsonb(patch)}::jsonb,
            title = coalesce(${input.deckName ?? null}, title),
            is_public = ${input.isPublic ?? row.is_public},
            share_type = ${shareType},
            share_expires_at = case when ${shareType} = 'expiring' then share_expires_at else null end,
            updated_at = now()
          where id = ${row.id}
          returning id, share_code, title, content, is_public, share_type, updated_at`,
      );
      const content = updated.content;
      return {
        id: updated.id,
        shareCode: updated.share_code,
        title: updated.title ?? '',
        deckName: typeof content['deckName'] === 'string' ? content['deckName'] : (updated.title ?? ''),
        description: typeof content['description'] === 'string' ? content['description'] : null,
        isPublic: updated.is_public,
        shareType: updated.share_type,
        cardCount: cardsOf(content),
        updatedAt: toIso(updated.updated_at),
      };
    },

    async remove(idOrShareCode: string, input: { sessionId?: string }, caller: ToolsCaller): Promise<{ id: string; deleted: true }> {
      const row = await ownedDeck(idOrShareCode, caller, input.sessionId);
      await sql.begin(async (tx) => {
        await tx`update tools_flashcards set deleted_at = now(), updated_at = now() where id = ${row.id} and deleted_at is null`;
        await tx`update tools_responses set deleted_at = now(), delete_reason = 'deck deleted' where tool = 'flashcards' and prompt_id = ${row.id} and deleted_at is null`;
        await tx`delete from tools_collection_items where tool = 'flashcards' and content_id = ${row.id}`;
        await tx`delete from tools_saved_prompts where tool = 'flashcards' and content_id = ${row.id}`;
      });
      return { id: row.id, deleted: true };
    },
  };
}
