// The SQL of file-based generation: a flipbook's page rows (tools_flipbook_pages), written with Drizzle
// inside the transaction that writes the content row.
import { toolsFlipbookPages, type Transaction } from '@story/db';

export interface FlipbookPageRow {
  pageNumber: number;
  storageKey: string;
  width: number | null;
  height: number | null;
  text: string;
}

export function createUploadsRepository() {
  return {
    /** The page rows of one flipbook, in the caller's transaction (they commit with the content row). */
    async insertFlipbookPages(tx: Transaction, flipbookId: string, pages: FlipbookPageRow[]): Promise<void> {
      if (!pages.length) return;
      await tx.insert(toolsFlipbookPages).values(pages.map((p) => ({ flipbookId, ...p })));
    },
  };
}

export type UploadsRepository = ReturnType<typeof createUploadsRepository>;
