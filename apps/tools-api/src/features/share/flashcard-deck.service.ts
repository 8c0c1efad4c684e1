// PATCH and DELETE /api/flashcards/[shareCode] (spec 002 tool-specific routes): the deck's owner renames
// it, describes it, or makes it public or private; or deletes it. Deleting is a soft delete of the deck
// that takes its responses, collection entries and saved copies with it, in one transaction.
import type postgres from 'postgres';
import type { ToolsCaller } from '../../shared/caller';
import { toIso } from '../../shared/dates';
import { toolsError } from '../../shared/errors';
import { canSee, changesContent } from '../../shared/visibility';
import { findLiveContent, type ContentAccessRow } from '../../shared/content.repository';
import { createShareRepository } from './share.repository';

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
  const repo = createShareRepository(sql);
  /** The deck for its owner: someone else's visible deck is 403, an invisible one 404 (never confirm it exists). */
  async function ownedDeck(idOrShareCode: string, caller: ToolsCaller, sessionId: string | undefined): Promise<ContentAccessRow> {
    if (sessionId !== undefined && sessionId !== caller.sessionId) throw toolsError.accessDenied('sessionId does not match X-Session-ID');
    const row = await findLiveContent(sql, 'flashcards', idOrShareCode);
    if (!row || !canSee(row, caller)) throw toolsError.notFound('Deck');
    if (!changesContent(row, caller)) throw toolsError.accessDenied('Only the deck’s owner can change it');
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
      const updated = await repo.updateDeck(row.id, patch, input.deckName ?? null, input.isPublic ?? row.is_public, shareType);
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
      await repo.deleteDeck(row.id);
      return { id: row.id, deleted: true };
    },
  };
}
