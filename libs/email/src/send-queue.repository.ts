// SQL of the enqueue side (Drizzle): templates and their running A/B test, the per-user send cap, and
// email_send_queue rows. Created over a database or a transaction handle, so enqueueTemplate runs it inside
// the one transaction that writes a send.
import { accounts, type DbOrTx, emailAbTests, emailSendQueue, emailTemplates } from '@story/db';
import { and, desc, eq, gt, isNull, lte, ne, or, sql } from 'drizzle-orm';

export type TemplateRow = typeof emailTemplates.$inferSelect;
export type NewQueueRow = Omit<typeof emailSendQueue.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** Who a capped send is counted for: the account, or an address without one (lower-cased). */
export type CapRecipient = { userId: string } | { email: string };

export function createSendQueueRepository(db: DbOrTx) {
  return {
    async findTemplate(ref: { id: string } | { name: string }, tx: DbOrTx = db): Promise<TemplateRow | undefined> {
      const where = 'id' in ref ? eq(emailTemplates.id, ref.id) : eq(emailTemplates.name, ref.name);
      const [row] = await tx.select().from(emailTemplates).where(where).limit(1);
      return row;
    },

    /** The newest running test of this base template whose window contains now. */
    async runningAbTest(baseTemplateId: string, tx: DbOrTx = db) {
      const [test] = await tx
        .select()
        .from(emailAbTests)
        .where(
          and(
            eq(emailAbTests.baseTemplateId, baseTemplateId),
            eq(emailAbTests.status, 'running'),
            lte(emailAbTests.startDate, sql`now()`),
            or(isNull(emailAbTests.endDate), gt(emailAbTests.endDate, sql`now()`)),
          ),
        )
        .orderBy(desc(emailAbTests.startDate))
        .limit(1);
      return test;
    },

    async findIdByIdempotencyKey(key: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [existing] = await tx.select({ id: emailSendQueue.id }).from(emailSendQueue).where(eq(emailSendQueue.idempotencyKey, key)).limit(1);
      return existing?.id;
    },

    async accountEmail(userId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [account] = await tx.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, userId)).limit(1);
      return account?.email;
    },

    /**
     * Rows a recipient has of a template, cancelled ones not counted. Takes a transaction-scoped advisory lock
     * first: concurrent enqueues of this template for this recipient are serialised, or two could both pass
     * the count. A/B variant rows carry the variant's template_id, so they count through their test's base.
     */
    async lockAndCountSends(baseTemplateId: string, recipient: CapRecipient, tx: DbOrTx = db): Promise<number> {
      const key = 'userId' in recipient ? recipient.userId : recipient.email;
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`email-cap:${baseTemplateId}:${key}`}))`);
      const ofRecipient = 'userId' in recipient ? eq(emailSendQueue.userId, recipient.userId) : sql`lower(${emailSendQueue.toEmail}) = ${recipient.email}`;
      const ofTemplate = or(
        eq(emailSendQueue.templateId, baseTemplateId),
        sql`${emailSendQueue.abTestId} in (select id from email_ab_tests where base_template_id = ${baseTemplateId})`,
      );
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(emailSendQueue)
        .where(and(ofRecipient, ofTemplate, ne(emailSendQueue.status, 'cancelled')));
      return n;
    },

    /** Insert a queue row due in `delayHours`; undefined when its idempotency key is already taken. */
    async insert(row: Omit<NewQueueRow, 'scheduledFor'>, delayHours: number, tx: DbOrTx = db): Promise<string | undefined> {
      const inserted = await tx
        .insert(emailSendQueue)
        .values({ ...row, scheduledFor: sql`now() + make_interval(secs => ${delayHours * 3600})` })
        // A concurrent call with the same key may have inserted between the caller's check and here.
        .onConflictDoNothing({ target: emailSendQueue.idempotencyKey })
        .returning({ id: emailSendQueue.id });
      return inserted[0]?.id;
    },

    /**
     * Anonymise every queue row of a user: a per-row address on the reserved .invalid domain (never
     * deliverable, never the person's), content replaced by `erasedContent`, variables emptied; what has not
     * been sent yet never will be. Returns how many rows changed.
     */
    async anonymiseForUser(userId: string, erasedContent: string, tx: DbOrTx = db): Promise<number> {
      const rows = await tx
        .update(emailSendQueue)
        .set({
          toEmail: `erased+${userId.slice(0, 8)}@erased.invalid`,
          subject: erasedContent,
          templateVariables: {},
          htmlContent: erasedContent,
          textContent: erasedContent,
          status: sql`case when ${emailSendQueue.status} = 'pending' then 'cancelled' else ${emailSendQueue.status} end`,
        })
        .where(eq(emailSendQueue.userId, userId))
        .returning({ id: emailSendQueue.id });
      return rows.length;
    },
  };
}

export type SendQueueRepository = ReturnType<typeof createSendQueueRepository>;
