// Gifts (spec 000 Gifts, CONTRACTS §9): purchase, redeem, the purchaser's list, cancel, failed-delivery
// retry and errors, and the admin list. Payment goes through the billing port; the email through
// @story/email; each multi-row change is one transaction. Redemption codes are never returned, stored
// (only their sha256) or logged: the recipient's email is the only place a code exists.
import { randomUUID } from 'node:crypto';
import type { Database, DbOrTx } from '@story/db';
import { AppError, badRequest, conflict, notFound } from '@story/http';
import { ProviderError, type Billing } from '@story/providers';
import { queueGiftEmail } from './gift-delivery';
import { addMonths, hashCode, hashNewCode, newRedemptionCode, normalizeCode, parseGiftPlan, planOf, REDEEM_VALIDITY_MONTHS, TIER_RANK } from './gift-plans';
import { adminGiftView, effectiveStatus, errorView, giftView, type AdminGiftView, type GiftErrorView, type GiftView } from './gift-views';
import { createGiftsRepository, giftInvoiceNumber, type GiftRow } from './gifts.repository';

export interface PurchaseInput {
  recipientName: string;
  recipientEmail: string;
  senderName?: string;
  message?: string;
  planId: string;
}

export interface GiftsDeps {
  db: Database;
  billing: Pick<Billing, 'charge' | 'refund' | 'paymentStatus'>;
  /** The web application, for the redeem link in the email. */
  appUrl: string;
}

/** A processor's refusal in our words: declined input is the caller's to fix, the rest is ours to retry. */
function paymentError(err: unknown): AppError {
  if (err instanceof ProviderError && err.kind === 'rejected_input') return new AppError('unprocessable', 'The payment was declined', { cause: err });
  return new AppError('unavailable', 'Payments are not available right now; nothing was charged', { cause: err });
}

const codeError = (kind: 'not_found' | 'conflict' | 'gone', message: string) => new AppError(kind, message, { field: 'code' });

export function createGiftsService({ db, billing, appUrl }: GiftsDeps) {
  const repo = createGiftsRepository(db);

  /** 409 unless the gift can still change hands: pending and inside its redemption window. */
  function assertPending(row: GiftRow, action: string) {
    const status = effectiveStatus(row);
    if (status !== 'pending') throw conflict(`Only a pending gift can be ${action}; this one is ${status}`);
  }

  return {
    async purchase(userId: string, input: PurchaseInput): Promise<{ gift: GiftView; invoiceId: string }> {
      const plan = parseGiftPlan(input.planId);
      const id = randomUUID();
      const code = newRedemptionCode();
      const description = `Gift: ${plan.tier} plan, ${plan.months} month${plan.months === 1 ? '' : 's'}, for ${input.recipientName}`;
      const charge = await billing
        .charge({ customerId: userId, amountCents: plan.amountCents, currency: plan.currency, description, idempotencyKey: `gift:${id}` })
        .catch((err: unknown) => {
          throw paymentError(err);
        });
      try {
        return await repo.transaction(async (tx) => {
          let gift = await repo.insert(
            {
              id,
              userId,
              recipientName: input.recipientName,
              recipientEmail: input.recipientEmail.toLowerCase(),
              senderName: input.senderName ?? null,
              message: input.message ?? null,
              planId: plan.planId,
              amountCents: plan.amountCents,
              currency: plan.currency,
              paymentReference: charge.paymentReference,
              codeHash: hashNewCode(code),
              expiresAt: addMonths(new Date(), REDEEM_VALIDITY_MONTHS),
              deliveryAttempts: 1,
            },
            tx,
          );
          const invoiceId = await repo.insertInvoice(
            {
              userId,
              number: giftInvoiceNumber(id),
              providerInvoiceId: charge.invoiceReference,
              amountCents: plan.amountCents,
              currency: plan.currency,
              description,
              lineItems: [{ description, quantity: plan.months, unitAmountCents: plan.amountCents / plan.months, amountCents: plan.amountCents }],
              status: charge.status,
              paidAt: charge.paidAt,
            },
            tx,
          );
          const refused = await queueGiftEmail(tx, gift, code, 1, appUrl);
          if (refused) gift = await repo.update(id, { deliveryStatus: 'failed', deliveryError: refused }, tx);
          return { gift: giftView(gift), invoiceId };
        });
      } catch (err) {
        // Nothing was written: give the money back (best effort; the processor's idempotency key makes a repeat harmless).
        await billing.refund({ paymentReference: charge.paymentReference, amountCents: plan.amountCents, reason: 'purchase not recorded', idempotencyKey: `gift:${id}:refund` }).catch(() => undefined);
        throw err;
      }
    },

    /**
     * Redeem once, inside the validity window: the gift row is locked (FOR UPDATE) so two redemptions of one
     * code run one after the other, then the redeemer's profile is locked and upgraded for the gift's term
     * (extending a term of the same tier they already hold through gifts). A refusal changes nothing.
     */
    async redeem(userId: string, rawCode: string): Promise<{ success: true; gift: GiftView; subscription: { tier: string; status: 'active'; term_ends_at: string } }> {
      const normalized = normalizeCode(rawCode);
      if (!normalized) throw badRequest('Invalid code: a gift code has 26 letters and digits (dashes and spaces are ignored)', { field: 'code' });
      return repo.transaction(async (tx) => {
        const gift = await repo.lockByCodeHash(hashCode(normalized), tx);
        if (!gift || gift.status === 'cancelled') throw codeError('not_found', 'Invalid code: no gift has this code');
        if (gift.status === 'redeemed') throw codeError('conflict', 'Invalid code: this gift code has already been redeemed');
        const status = effectiveStatus(gift);
        if (status === 'expired') throw codeError('gone', `Invalid code: this gift code expired on ${gift.expiresAt?.toISOString().slice(0, 10) ?? 'its last valid day'}`);
        // CONTRACTS §9: a gift upgrades nobody unless the payment processor confirms its payment now (an open,
        // failed or refunded charge, or a reference the configured processor does not know, changes nothing).
        const payment = gift.paymentReference ? await billing.paymentStatus(gift.paymentReference).catch(() => 'unknown' as const) : 'unknown';
        if (payment !== 'paid') {
          throw codeError('conflict', "Invalid code: this gift's payment has not been confirmed by the payment processor, so it cannot be redeemed; the code stays unused");
        }
        const profile = await repo.lockProfile(userId, tx);
        if (!profile) throw notFound('Profile');
        const plan = planOf(gift.planId);
        if ((TIER_RANK[profile.tier] ?? 0) > (TIER_RANK[plan.tier] ?? 0) && profile.status !== 'cancelled') {
          throw codeError('conflict', `Invalid code: your account already has the ${profile.tier} plan and this gift is for the ${plan.tier} plan; the code stays unused`);
        }
        const now = new Date();
        const current = await repo.latestTermEnd(userId, plan.tier, tx);
        const termEndsAt = addMonths(current && current > now ? current : now, plan.months);
        const updated = await repo.update(gift.id, { status: 'redeemed', redeemedBy: userId, redeemedAt: now, termEndsAt }, tx);
        await repo.setProfileTier(userId, plan.tier, 'active', tx);
        return { success: true as const, gift: giftView(updated), subscription: { tier: plan.tier, status: 'active' as const, term_ends_at: termEndsAt.toISOString() } };
      });
    },

    async list(userId: string): Promise<{ gifts: GiftView[] }> {
      await repo.syncDelivery({ userId });
      return { gifts: (await repo.listOwned(userId)).map(giftView) };
    },

    /** The purchaser's gift; anyone else's (or a cancelled one) is 404. */
    async get(userId: string, giftId: string): Promise<{ gift: GiftView }> {
      if (!(await repo.findOwned(giftId, userId))) throw notFound('Gift');
      await repo.syncDelivery({ giftId });
      const row = await repo.findOwned(giftId, userId);
      if (!row) throw notFound('Gift');
      return { gift: giftView(row) };
    },

    /** Cancel a pending gift: refund it, void its invoice, stop its unsent email; the code stops working. */
    async cancel(userId: string, giftId: string): Promise<{ success: true; id: string; status: 'cancelled' }> {
      return repo.transaction(async (tx) => {
        const gift = await repo.lockOwned(giftId, userId, tx);
        if (!gift) throw notFound('Gift');
        assertPending(gift, 'cancelled');
        if (gift.paymentReference) {
          // Inside the transaction: a refused refund rolls everything back and the gift stays as it was.
          await billing
            .refund({ paymentReference: gift.paymentReference, amountCents: gift.amountCents ?? 0, reason: 'gift cancelled', idempotencyKey: `gift:${gift.id}:refund` })
            .catch((err: unknown) => {
              throw paymentError(err);
            });
        }
        await repo.update(gift.id, { status: 'cancelled', cancelledAt: new Date() }, tx);
        await repo.cancelQueuedEmail(gift.id, gift.deliveryAttempts, tx);
        await repo.voidInvoice(giftInvoiceNumber(gift.id), tx);
        return { success: true as const, id: gift.id, status: 'cancelled' as const };
      });
    },

    /**
     * Send a gift whose email failed again. The code is replaced (the failed message may sit in some
     * mailbox), so only the new email's code works; the attempt number keys the new queue row.
     */
    async retry(userId: string, giftId: string): Promise<{ success: true; gift: GiftView }> {
      if (!(await repo.findOwned(giftId, userId))) throw notFound('Gift');
      await repo.syncDelivery({ giftId });
      return repo.transaction(async (tx) => {
        const gift = await repo.lockOwned(giftId, userId, tx);
        if (!gift) throw notFound('Gift');
        assertPending(gift, 'sent again');
        if (gift.deliveryStatus !== 'failed') throw conflict(`Only a gift whose email failed can be sent again; its email is ${gift.deliveryStatus}`);
        const code = newRedemptionCode();
        const attempt = gift.deliveryAttempts + 1;
        let updated = await repo.update(
          gift.id,
          { codeHash: hashNewCode(code), deliveryAttempts: attempt, deliveryStatus: 'pending', deliveryError: null, errorDismissedAt: null },
          tx,
        );
        const refused = await queueGiftEmail(tx, updated, code, attempt, appUrl);
        if (refused) updated = await repo.update(gift.id, { deliveryStatus: 'failed', deliveryError: refused }, tx);
        return { success: true as const, gift: giftView(updated) };
      });
    },

    async errors(userId: string): Promise<{ errors: GiftErrorView[] }> {
      await repo.syncDelivery({ userId });
      return { errors: (await repo.listFailed(userId)).map(errorView) };
    },

    /** Dismiss one failed-delivery notice (giftId) or all of the caller's. */
    async dismissErrors(userId: string, giftId?: string): Promise<{ success: true; dismissed: number }> {
      if (giftId && !(await repo.findOwned(giftId, userId))) throw notFound('Gift');
      return { success: true, dismissed: await repo.dismissErrors(userId, giftId) };
    },

    async adminList(q: { limit: number; offset: number; status?: string }): Promise<{ gifts: AdminGiftView[]; total: number; limit: number; offset: number }> {
      const { rows, total } = await repo.adminList(q);
      return { gifts: rows.map(adminGiftView), total, limit: q.limit, offset: q.offset };
    },

    /** Remove a gift record for good (support clean-up); an unsent email goes with it. No money moves. */
    async adminDelete(giftId: string): Promise<{ success: true; id: string }> {
      return repo.transaction(async (tx: DbOrTx) => {
        const gift = await repo.lockById(giftId, tx);
        if (!gift) throw notFound('Gift');
        if (gift.status === 'pending') await repo.cancelQueuedEmail(gift.id, gift.deliveryAttempts, tx);
        await repo.deleteById(gift.id, tx);
        return { success: true as const, id: gift.id };
      });
    },
  };
}

export type GiftsService = ReturnType<typeof createGiftsService>;
