// Gift subscriptions bought for someone else and redeemed with a code (spec 000 Gifts), with the
// delivery state that GET /api/gifts/errors and POST /api/gifts/retry work from.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

export const GIFT_STATUSES = ['pending', 'redeemed', 'expired', 'cancelled'] as const;
export type GiftStatus = (typeof GIFT_STATUSES)[number];
/** State of the email that carries the code to the recipient. */
export const GIFT_DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export type GiftDeliveryStatus = (typeof GIFT_DELIVERY_STATUSES)[number];

export const gifts = pgTable(
  'gifts',
  {
    id: id(),
    /** The purchaser. Set null, not cascade: a bought gift stays redeemable if the buyer leaves. */
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    recipientName: text('recipient_name').notNull(),
    /** Stored lower-cased. */
    recipientEmail: text('recipient_email').notNull(),
    senderName: text('sender_name'),
    message: text('message'),
    /** Subscription plan the gift grants (e.g. family-12m). */
    planId: text('plan_id').notNull(),
    amountCents: integer('amount_cents'),
    currency: text('currency').notNull().default('usd'),
    /** The payment processor's id for the purchase, so a replayed payment event cannot create a second gift. */
    paymentReference: text('payment_reference'),
    /** sha256 of the redemption code; the code exists only in the recipient's email. */
    codeHash: text('code_hash').notNull(),
    status: text('status').$type<GiftStatus>().notNull().default('pending'),
    deliveryStatus: text('delivery_status').$type<GiftDeliveryStatus>().notNull().default('pending'),
    deliveryError: text('delivery_error'),
    deliveryAttempts: integer('delivery_attempts').notNull().default(0),
    /** The purchaser dismissed the failed-delivery notice (POST /api/gifts/errors/dismiss). */
    errorDismissedAt: timestamp('error_dismissed_at', { withTimezone: true }),
    redeemedBy: uuid('redeemed_by').references(() => accounts.id, { onDelete: 'set null' }),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    /** The code can be redeemed until then; afterwards the gift reads as expired. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Set at redemption: the end of the subscription term the gift granted (redeemer's tier falls back then). */
    termEndsAt: timestamp('term_ends_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('gifts_code_hash_key').on(t.codeHash),
    uniqueIndex('gifts_payment_reference_key').on(t.paymentReference),
    index('gifts_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    index('gifts_redeemed_by_idx').on(t.redeemedBy),
    // The term-end sweep: redeemed gifts whose term has passed.
    index('gifts_term_ends_at_idx').on(t.termEndsAt).where(sql`status = 'redeemed'`),
    // Admin list, newest first.
    index('gifts_created_at_idx').on(t.createdAt.desc().nullsFirst()),
    check('gifts_status_check', oneOf('status', GIFT_STATUSES)),
    check('gifts_delivery_status_check', oneOf('delivery_status', GIFT_DELIVERY_STATUSES)),
    check('gifts_redeemed_check', sql`status <> 'redeemed' OR redeemed_at IS NOT NULL`),
    check('gifts_amount_check', sql`amount_cents IS NULL OR amount_cents >= 0`),
  ],
);
