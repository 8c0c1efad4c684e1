// Queueing the gift email (template gift_notification, seeded by migration 0001) through @story/email,
// inside the caller's transaction. The code travels only in the email's link; callers never log it.
import { enqueueTemplate } from '@story/email';
import type { DbOrTx } from '@story/db';
import { deliveryKey, type GiftRow } from './gifts.repository';

export const GIFT_TEMPLATE = 'gift_notification';

const REFUSALS: Record<string, string> = {
  template_not_found: 'The gift email template is missing',
  template_inactive: 'The gift email template is switched off',
  no_recipient: 'The gift has no recipient address',
};

/** Queue attempt number `attempt` of a gift's email; returns the delivery error when nothing was queued. */
export async function queueGiftEmail(
  tx: DbOrTx,
  gift: Pick<GiftRow, 'id' | 'recipientName' | 'recipientEmail' | 'senderName' | 'message'>,
  code: string,
  attempt: number,
  appUrl: string,
): Promise<string | null> {
  const variables: Record<string, unknown> = {
    recipient_name: gift.recipientName,
    redeem_url: `${appUrl}/gifts/redeem?code=${encodeURIComponent(code)}`,
  };
  // Absent values fall back to the template's defaults ("Someone who loves you", its own message).
  if (gift.senderName) variables['sender_name'] = gift.senderName;
  if (gift.message) variables['gift_message'] = gift.message;
  const result = await enqueueTemplate(tx, {
    template: { name: GIFT_TEMPLATE },
    userId: null,
    toEmail: gift.recipientEmail,
    variables,
    idempotencyKey: deliveryKey(gift.id, attempt),
    // The code is a credential: no view of the queue but the delivery shows it (CONTRACTS §7).
    sensitiveVariables: ['redeem_url'],
  });
  if (result.queued) return null;
  return REFUSALS[result.reason ?? ''] ?? `The email was not queued (${result.reason ?? 'unknown reason'})`;
}
