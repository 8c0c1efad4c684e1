// The SQL of generation: one content row with its 'generate' event, its AI usage rows and any extra rows
// (flipbook pages, collection items), in one Drizzle transaction so none exists without the others.
import { randomUUID } from 'node:crypto';
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
      // The id is made here so the event and usage rows need not wait for the content row: the three
      // inserts go to PostgreSQL together (postgres.js pipelines a transaction's queries issued at once),
      // one round trip instead of three. They are prepared statements (drizzle's .prepare): drizzle sends
      // an unnamed query otherwise, which postgres.js describes first (a round trip of its own) and never
      // pipelines, so each insert cost two round trips.
      const id = values.id ?? randomUUID();
      const rows = usage(id);
      return db.transaction(async (tx) => {
        const [[inserted]] = await Promise.all([
          tx.insert(table).values({ ...values, id }).returning({ id: table.id, createdAt: table.createdAt }).prepare('tools_generate_content').execute(),
          tx.insert(toolsAnalytics).values({ tool, contentId: id, eventType: 'generate', ...event }).prepare('tools_generate_event').execute(),
          rows.length ? tx.insert(toolsAiUsage).values(rows).prepare('tools_generate_usage').execute() : undefined,
        ]);
        if (extraWrites) await extraWrites(tx, id);
        return inserted!;
      });
    },
  };
}
