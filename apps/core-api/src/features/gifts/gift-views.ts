// The JSON shapes of gifts: the spec's list fields (id, recipient_name, recipient_email, status,
// created_at) first, snake_case like them, then what a purchaser's screen needs. No code, ever.
import type { GiftRow } from './gifts.repository';

/** Spec 000 gift status: a pending gift past its redemption window reads as expired. */
export type GiftStatusView = 'pending' | 'redeemed' | 'expired' | 'cancelled';

export function effectiveStatus(row: Pick<GiftRow, 'status' | 'expiresAt'>, now = new Date()): GiftStatusView {
  if (row.status === 'pending' && row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return row.status;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function giftView(row: GiftRow) {
  return {
    id: row.id,
    recipient_name: row.recipientName,
    recipient_email: row.recipientEmail,
    status: effectiveStatus(row),
    created_at: row.createdAt.toISOString(),
    sender_name: row.senderName,
    message: row.message,
    plan_id: row.planId,
    amount_cents: row.amountCents,
    currency: row.currency,
    delivery_status: row.deliveryStatus,
    delivery_error: row.deliveryError,
    delivery_attempts: row.deliveryAttempts,
    expires_at: iso(row.expiresAt),
    redeemed_at: iso(row.redeemedAt),
    term_ends_at: iso(row.termEndsAt),
  };
}
export type GiftView = ReturnType<typeof giftView>;

/** What an admin sees: the row with its raw status (cancelled included) and who bought and redeemed it. */
export const adminGiftView = (row: GiftRow) => ({ ...giftView(row), stored_status: row.status, user_id: row.userId, redeemed_by: row.redeemedBy, cancelled_at: iso(row.cancelledAt) });
export type AdminGiftView = ReturnType<typeof adminGiftView>;

export const errorView = (row: GiftRow) => ({
  id: row.id,
  gift_id: row.id,
  recipient_name: row.recipientName,
  recipient_email: row.recipientEmail,
  error: row.deliveryError ?? 'The email could not be delivered',
  attempts: row.deliveryAttempts,
  failed_at: row.updatedAt.toISOString(),
});
export type GiftErrorView = ReturnType<typeof errorView>;
