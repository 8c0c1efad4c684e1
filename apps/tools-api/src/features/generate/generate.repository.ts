// The SQL of generation: one content row with its 'generate' event, its AI usage rows and any extra rows
// (flipbook pages, collection items), in one Drizzle transaction so none exists without the others.
import { toolsAiUsage, toolsAnalytics, type Database, type Transaction } from '@story/db';
import { toolTableOf } from '../../shared/tool-param';
import type { ToolRoute } from '@story/db';

type ContentTable = ReturnType<typeof toolTableOf>;
export type NewContentRow = ContentTable['$inferInsert'];
export type NewGenerateEvent = Omit<typeof toolsAnalytics.$inferInsert, 'contentId' | 'tool' | 'eventType'>;
export type NewAiUsage = typeof toolsAiUsage.$inferInsert;

export function createGenerateRepository(db: Database) {
  return {
    /**
     * Insert the content row, then its event, the usage rows (`usage` gets the new id) and `extraWrites`,
     * all in one transaction. A share-code collision throws PostgreSQL's unique violation.
     */
    async insertGenerated(
      tool: ToolRoute,
      values: NewContentRow,
      event: NewGenerateEvent,
      usage: (contentId: string) => NewAiUsage[],
      extraWrites?: (tx: Transaction, contentId: string) => Promise<void>,
    ): Promise<{ id: string; createdAt: Date }> {
      const table = toolTableOf(tool);
      return db.transaction(async (tx) => {
        const [inserted] = await tx.insert(table).values(values).returning({ id: table.id, createdAt: table.createdAt });
        const id = inserted!.id;
        await tx.insert(toolsAnalytics).values({ tool, contentId: id, eventType: 'generate', ...event });
        const rows = usage(id);
        if (rows.length) await tx.insert(toolsAiUsage).values(rows);
        if (extraWrites) await extraWrites(tx, id);
        return inserted!;
      });
    },
  };
}
