// SQL of A/B tests (Drizzle): the tests, their templates' names, and the per-arm counts read from the queue.
import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { emailAbTests, emailSendQueue, emailTemplates, type AbTestStatus, type Database, type DbOrTx } from '@story/db';

export type AbTestRow = typeof emailAbTests.$inferSelect;
export type NewAbTest = Omit<typeof emailAbTests.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** Raw counts of one arm of one test (sent rows only). */
export interface ArmRow {
  abTestId: string | null;
  variant: string | null;
  sent: number;
  opened: number;
  clicked: number;
}

export function createAbTestsRepository(db: Database) {
  return {
    transaction<T>(fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
      return db.transaction(fn);
    },

    async findRunningForBase(baseTemplateId: string, tx: DbOrTx = db): Promise<{ id: string } | undefined> {
      const [running] = await tx
        .select({ id: emailAbTests.id })
        .from(emailAbTests)
        .where(and(eq(emailAbTests.baseTemplateId, baseTemplateId), eq(emailAbTests.status, 'running')))
        .limit(1);
      return running;
    },

    async insert(test: NewAbTest, tx: DbOrTx = db): Promise<AbTestRow> {
      const [row] = await tx.insert(emailAbTests).values(test).returning();
      return row!;
    },

    /** Mark running tests past their end date completed. */
    async completeExpired(tx: DbOrTx = db): Promise<void> {
      await tx
        .update(emailAbTests)
        .set({ status: 'completed', updatedAt: new Date() })
        .where(and(eq(emailAbTests.status, 'running'), lt(emailAbTests.endDate, sql`now()`)));
    },

    /** A page of tests, newest first, each with the id and names of its two templates, and the total. */
    async list(filter: { status?: AbTestStatus; limit: number; offset: number }, tx: DbOrTx = db) {
      const baseT = alias(emailTemplates, 'base_t');
      const variantT = alias(emailTemplates, 'variant_t');
      const where = filter.status ? eq(emailAbTests.status, filter.status) : undefined;
      const [rows, [totals]] = await Promise.all([
        tx
          .select({
            test: emailAbTests,
            base: { id: baseT.id, name: baseT.name, display_name: baseT.displayName },
            variant: { id: variantT.id, name: variantT.name, display_name: variantT.displayName },
          })
          .from(emailAbTests)
          .innerJoin(baseT, eq(baseT.id, emailAbTests.baseTemplateId))
          .innerJoin(variantT, eq(variantT.id, emailAbTests.variantTemplateId))
          .where(where)
          .orderBy(desc(emailAbTests.createdAt), emailAbTests.id)
          .limit(filter.limit)
          .offset(filter.offset),
        tx.select({ total: count() }).from(emailAbTests).where(where),
      ]);
      return { rows, total: Number(totals?.total ?? 0) };
    },

    /** Sent, opened and clicked per test and arm: one grouped read over the ab_test_id index for a whole page. */
    async armCounts(abTestIds: string[], tx: DbOrTx = db): Promise<ArmRow[]> {
      if (abTestIds.length === 0) return [];
      return tx
        .select({
          abTestId: emailSendQueue.abTestId,
          variant: emailSendQueue.abVariant,
          sent: sql<number>`count(*) filter (where ${emailSendQueue.status} = 'sent')::int`,
          opened: sql<number>`count(*) filter (where ${emailSendQueue.status} = 'sent' and ${emailSendQueue.openedAt} is not null)::int`,
          clicked: sql<number>`count(*) filter (where ${emailSendQueue.status} = 'sent' and ${emailSendQueue.clickedAt} is not null)::int`,
        })
        .from(emailSendQueue)
        .where(inArray(emailSendQueue.abTestId, abTestIds))
        .groupBy(emailSendQueue.abTestId, emailSendQueue.abVariant);
    },
  };
}

export type AbTestsRepository = ReturnType<typeof createAbTestsRepository>;
