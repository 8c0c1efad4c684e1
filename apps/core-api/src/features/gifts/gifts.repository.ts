// The SQL of gifts (Drizzle, CONVENTIONS 7): gift rows, the redeemer's profile tier, the invoice of a
// purchase, and the delivery state read back from the email queue. Every method takes an optional tx.
import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { gifts, invoices, one, profiles, type Database, type DbOrTx, type InvoiceLineItem, type SubscriptionTier } from '@story/db';

export type GiftRow = typeof gifts.$inferSelect;
export type NewGift = typeof gifts.$inferInsert;
export type GiftPatch = Partial<Omit<NewGift, 'id' | 'createdAt'>>;

/** The idempotency key of a gift's n-th email: the queue row that tells whether it was delivered. */
export const deliveryKey = (giftId: string, attempt: number) => `gift:${giftId}:${attempt}`;

/** The invoice number of a gift purchase: unique by construction and findable when the gift is cancelled. */
export const giftInvoiceNumber = (giftId: string) => `GIFT-${giftId}`;

export function createGiftsRepository(db: Database) {
  return {
    transaction: <T>(fn: (tx: DbOrTx) => Promise<T>) => db.transaction(fn),

    async insert(values: NewGift, tx: DbOrTx = db): Promise<GiftRow> {
      return one(await tx.insert(gifts).values(values).returning());
    },

    async update(id: string, patch: GiftPatch, tx: DbOrTx = db): Promise<GiftRow> {
      return one(await tx.update(gifts).set(patch).where(eq(gifts.id, id)).returning());
    },

    /** The purchaser's gift, cancelled ones excluded (cancelling is deleting, for the purchaser). */
    async findOwned(id: string, userId: string, tx: DbOrTx = db): Promise<GiftRow | undefined> {
      const [row] = await tx.select().from(gifts).where(and(eq(gifts.id, id), eq(gifts.userId, userId), ne(gifts.status, 'cancelled')));
      return row;
    },

    /** As findOwned, with the row locked until the transaction ends. */
    async lockOwned(id: string, userId: string, tx: DbOrTx): Promise<GiftRow | undefined> {
      const [row] = await tx.select().from(gifts).where(and(eq(gifts.id, id), eq(gifts.userId, userId), ne(gifts.status, 'cancelled'))).for('update');
      return row;
    },

    /** The gift a code opens, locked: two redemptions of one code queue here and the second sees the first's outcome. */
    async lockByCodeHash(codeHash: string, tx: DbOrTx): Promise<GiftRow | undefined> {
      const [row] = await tx.select().from(gifts).where(eq(gifts.codeHash, codeHash)).for('update');
      return row;
    },

    async lockById(id: string, tx: DbOrTx): Promise<GiftRow | undefined> {
      const [row] = await tx.select().from(gifts).where(eq(gifts.id, id)).for('update');
      return row;
    },

    async listOwned(userId: string, tx: DbOrTx = db): Promise<GiftRow[]> {
      return tx.select().from(gifts).where(and(eq(gifts.userId, userId), ne(gifts.status, 'cancelled'))).orderBy(desc(gifts.createdAt), desc(gifts.id));
    },

    /** Failed deliveries the purchaser has not dismissed, of gifts still waiting to be redeemed. */
    async listFailed(userId: string, tx: DbOrTx = db): Promise<GiftRow[]> {
      return tx
        .select()
        .from(gifts)
        .where(and(eq(gifts.userId, userId), eq(gifts.status, 'pending'), eq(gifts.deliveryStatus, 'failed'), isNull(gifts.errorDismissedAt)))
        .orderBy(desc(gifts.updatedAt));
    },

    async dismissErrors(userId: string, giftId: string | undefined, tx: DbOrTx = db): Promise<number> {
      const rows = await tx
        .update(gifts)
        .set({ errorDismissedAt: new Date() })
        .where(
          and(eq(gifts.userId, userId), eq(gifts.deliveryStatus, 'failed'), isNull(gifts.errorDismissedAt), ne(gifts.status, 'cancelled'), giftId ? eq(gifts.id, giftId) : undefined),
        )
        .returning({ id: gifts.id });
      return rows.length;
    },

    async adminList(q: { limit: number; offset: number; status?: string }, tx: DbOrTx = db): Promise<{ rows: GiftRow[]; total: number }> {
      const where = q.status ? eq(gifts.status, q.status as GiftRow['status']) : undefined;
      const rows = await tx.select().from(gifts).where(where).orderBy(desc(gifts.createdAt), desc(gifts.id)).limit(q.limit).offset(q.offset);
      const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(gifts).where(where);
      return { rows, total: count?.n ?? 0 };
    },

    async deleteById(id: string, tx: DbOrTx = db): Promise<boolean> {
      return (await tx.delete(gifts).where(eq(gifts.id, id)).returning({ id: gifts.id })).length > 0;
    },

    /**
     * Read each gift's current email back from the queue (the row of its latest attempt) into
     * delivery_status: sent once the worker sent it; failed when it failed, was cancelled, bounced or drew
     * a complaint. One statement, so the lists below never show a stale state.
     */
    async syncDelivery(filter: { userId: string } | { giftId: string }, tx: DbOrTx = db): Promise<void> {
      const scope = 'userId' in filter ? sql`g.user_id = ${filter.userId}` : sql`g.id = ${filter.giftId}`;
      await tx.execute(sql`
        update gifts g set
          delivery_status = case when q.status in ('failed', 'cancelled') or q.bounced_at is not null or q.complained_at is not null then 'failed' else 'sent' end,
          delivery_error = case when q.bounced_at is not null then 'The email bounced'
                                when q.complained_at is not null then 'The recipient marked the email as spam'
                                when q.status = 'cancelled' then 'The email was cancelled before it was sent'
                                when q.status = 'failed' then 'The email could not be delivered'
                                else null end,
          updated_at = now()
        from email_send_queue q
        where ${scope} and g.status = 'pending' and g.delivery_status <> 'failed'
          and q.idempotency_key = 'gift:' || g.id || ':' || g.delivery_attempts
          and (q.status in ('sent', 'failed', 'cancelled') or q.bounced_at is not null or q.complained_at is not null)
          and not (q.status = 'sent' and q.bounced_at is null and q.complained_at is null and g.delivery_status = 'sent')`);
    },

    /** Stop a queued, unsent gift email (the gift was cancelled or its code replaced). */
    async cancelQueuedEmail(giftId: string, attempt: number, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`update email_send_queue set status = 'cancelled', updated_at = now()
                           where idempotency_key = ${deliveryKey(giftId, attempt)} and status = 'pending'`);
    },

    // Profile of the redeemer.
    async lockProfile(userId: string, tx: DbOrTx): Promise<{ tier: string; status: string | null; paymentCustomerId: string | null } | undefined> {
      const [row] = await tx
        .select({ tier: profiles.subscriptionTier, status: profiles.subscriptionStatus, paymentCustomerId: profiles.paymentCustomerId })
        .from(profiles)
        .where(eq(profiles.id, userId))
        .for('update');
      return row;
    },

    async setProfileTier(userId: string, tier: SubscriptionTier, status: 'active' | 'cancelled', tx: DbOrTx): Promise<void> {
      await tx
        .update(profiles)
        .set({ subscriptionTier: tier, subscriptionStatus: status })
        .where(eq(profiles.id, userId));
    },

    /** The latest end of a term of this tier that the account holds through redeemed gifts. */
    async latestTermEnd(userId: string, planPrefix: string, tx: DbOrTx): Promise<Date | null> {
      const [row] = await tx
        .select({ end: sql<Date | null>`max(${gifts.termEndsAt})`.mapWith(gifts.termEndsAt) })
        .from(gifts)
        .where(and(eq(gifts.redeemedBy, userId), eq(gifts.status, 'redeemed'), sql`split_part(${gifts.planId}, '-', 1) = ${planPrefix}`, sql`${gifts.termEndsAt} > now()`));
      return row?.end ?? null;
    },

    // The purchase's invoice.
    async insertInvoice(
      values: { userId: string; number: string; providerInvoiceId: string; amountCents: number; currency: string; description: string; lineItems: InvoiceLineItem[]; paidAt: Date | null; status: 'paid' | 'open' },
      tx: DbOrTx,
    ): Promise<string> {
      return one(await tx.insert(invoices).values(values).returning({ id: invoices.id })).id;
    },

    async voidInvoice(number: string, tx: DbOrTx): Promise<void> {
      await tx.update(invoices).set({ status: 'void' }).where(eq(invoices.number, number));
    },
  };
}

export type GiftsRepository = ReturnType<typeof createGiftsRepository>;
