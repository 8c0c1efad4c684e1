// Request and response schemas of the gift routes (spec 000 Gifts, CONTRACTS §9).
import { z } from 'zod';
import { GIFT_STATUSES } from '@story/db';

const text = (max: number) => z.string().trim().min(1, { message: 'is required' }).max(max);

export const purchaseBody = z.object({
  recipientName: text(200),
  recipientEmail: z
    .string()
    .trim()
    .max(254)
    .pipe(z.email({ message: 'must be a valid email address' })),
  senderName: z.string().trim().max(200).optional(),
  message: z.string().trim().max(2000).optional(),
  planId: text(40),
});

export const redeemBody = z.object({ code: z.string().trim().min(1, { message: 'is required' }).max(100) });
export const giftIdBody = z.object({ giftId: z.uuid() });
/** No body (or {}) dismisses every notice of the caller. */
export const dismissBody = z.object({ giftId: z.uuid().optional() }).nullish();
/** DELETE routes take the gift id in the query (`?id=`), as DELETE /api/recordings does: DELETE bodies are often dropped by clients and proxies. */
export const idQuery = z.object({ id: z.uuid() });
export const adminListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  status: z.enum(GIFT_STATUSES).optional(),
});

const status = z.enum(['pending', 'redeemed', 'expired', 'cancelled']);
export const giftSchema = z.object({
  id: z.uuid(),
  recipient_name: z.string(),
  recipient_email: z.string(),
  status,
  created_at: z.string(),
  sender_name: z.string().nullable(),
  message: z.string().nullable(),
  plan_id: z.string(),
  amount_cents: z.number().int().nullable(),
  currency: z.string(),
  delivery_status: z.enum(['pending', 'sent', 'failed']),
  delivery_error: z.string().nullable(),
  delivery_attempts: z.number().int(),
  expires_at: z.string().nullable(),
  redeemed_at: z.string().nullable(),
  term_ends_at: z.string().nullable(),
});
export const adminGiftSchema = giftSchema.extend({
  stored_status: z.enum(GIFT_STATUSES),
  user_id: z.uuid().nullable(),
  redeemed_by: z.uuid().nullable(),
  cancelled_at: z.string().nullable(),
});
export const giftErrorSchema = z.object({
  id: z.uuid(),
  gift_id: z.uuid(),
  recipient_name: z.string(),
  recipient_email: z.string(),
  error: z.string(),
  attempts: z.number().int(),
  failed_at: z.string(),
});
