// The SQL of invoices (Drizzle): the caller's rows only, newest first.
import { and, desc, eq } from 'drizzle-orm';
import { invoices, type Database, type DbOrTx } from '@story/db';

export type InvoiceRow = typeof invoices.$inferSelect;

export function createInvoicesRepository(db: Database) {
  return {
    async listOwned(userId: string, q: { limit: number; offset: number }, tx: DbOrTx = db): Promise<InvoiceRow[]> {
      return tx.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.issuedAt), desc(invoices.id)).limit(q.limit).offset(q.offset);
    },
    async findOwned(id: string, userId: string, tx: DbOrTx = db): Promise<InvoiceRow | undefined> {
      const [row] = await tx.select().from(invoices).where(and(eq(invoices.id, id), eq(invoices.userId, userId)));
      return row;
    },
  };
}
