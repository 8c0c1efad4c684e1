// Delivery events from the email provider (spec 001 Events, CONTRACTS §6): verified with the Svix scheme over
// the RAW body; a bad, missing or stale signature (5 minutes) or no EMAIL_WEBHOOK_SECRET is refused and
// nothing is recorded. Each svix-id is applied once: the event insert is ON CONFLICT (svix_id) DO NOTHING and
// everything an event changes happens in that same transaction.
import type * as Svix from 'svix';
import { z } from 'zod';
import type { TransactionSql } from 'postgres';
import { AppError } from '@story/http';
import type { StampColumn, WebhooksRepository } from './webhooks.repository';

// svix loads at the first webhook, not at start.
let svix: typeof Svix | undefined;
const loadSvix = () => (svix ??= require('svix') as typeof Svix);

/** Longest provider message id taken: it reaches unique indexes (a btree row holds at most ~2.7 kB). */
export const MAX_EMAIL_ID = 200;
const address = z.string().max(320);

/** A delivery event as the provider sends it (Resend's shape); every text that reaches an index is bounded. */
export const eventSchema = z.object({
  type: z.string().min(1).max(100).describe('email.sent, email.delivered, email.opened, email.clicked, email.bounced, email.complained; others are kept and change nothing'),
  created_at: z.string().datetime({ offset: true }),
  data: z
    .object({
      email_id: z.string().min(1).max(MAX_EMAIL_ID).describe('The provider’s message id'),
      to: z.union([address, z.array(address).max(100)]),
      subject: z.string().max(2000),
    })
    .passthrough(),
});
export type DeliveryEvent = z.infer<typeof eventSchema>;

/** The three Svix headers as received ('' when absent). */
export interface SvixHeaders {
  'svix-id': string;
  'svix-timestamp': string;
  'svix-signature': string;
}

type Counter = 'sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained';

/** A bounce the provider marks as temporary (soft) does not suppress the address. */
function isSoftBounce(data: Record<string, unknown>): boolean {
  const bounce = data['bounce'];
  const type = bounce && typeof bounce === 'object' ? (bounce as Record<string, unknown>)['type'] : undefined;
  return typeof type === 'string' && /transient|soft|temporary/i.test(type);
}

/** What an event type stamps on its queue row, and whether it suppresses the address. */
function effectOf(event: DeliveryEvent): { stamps: [StampColumn, Counter][]; suppress?: 'hard_bounce' | 'complaint' } {
  switch (event.type) {
    case 'email.sent':
      return { stamps: [['sent_at', 'sent']] };
    case 'email.delivered':
      return { stamps: [['delivered_at', 'delivered']] };
    case 'email.opened':
      return { stamps: [['opened_at', 'opened']] };
    case 'email.clicked':
      return { stamps: [['clicked_at', 'clicked'], ['opened_at', 'opened']] };
    case 'email.bounced':
      return { stamps: [['bounced_at', 'bounced']], suppress: isSoftBounce(event.data) ? undefined : 'hard_bounce' };
    case 'email.complained':
      return { stamps: [['complained_at', 'complained']], suppress: 'complaint' };
    default:
      // Unknown types are kept (matched) but change nothing.
      return { stamps: [] };
  }
}

export function createWebhooksService({ webhooks, secret }: { webhooks: WebhooksRepository; secret: string | undefined }) {
  /** Check the signature and the event's shape; throws unauthorized or validation. */
  function verify(raw: string, headers: SvixHeaders): DeliveryEvent {
    if (!secret) throw new AppError('unauthorized', 'Unauthorized');
    try {
      new (loadSvix().Webhook)(secret).verify(raw, { ...headers });
    } catch (err) {
      // verify() checks the signature first and then parses the body: a SyntaxError means a signed non-JSON body.
      if (err instanceof SyntaxError) throw new AppError('validation', 'Body is not valid JSON', { code: 'VALIDATION_ERROR' });
      throw new AppError('unauthorized', 'Invalid webhook signature');
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new AppError('validation', 'Body is not valid JSON', { code: 'VALIDATION_ERROR' });
    }
    const parsed = eventSchema.safeParse(json);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.')))];
      throw new AppError('validation', `Invalid event: ${fields.join(', ')}`, { code: 'VALIDATION_ERROR', details: { invalid_fields: fields } });
    }
    return parsed.data;
  }

  /** Apply one verified event inside `tx`; returns the answer's message. */
  async function apply(tx: TransactionSql, svixId: string, event: DeliveryEvent): Promise<string> {
    const occurredAt = new Date(event.created_at);
    const emailId = event.data.email_id;
    const eventId = await webhooks.insertEvent({ svixId, type: event.type, providerMessageId: emailId, payload: event, occurredAt }, tx);
    if (!eventId) return 'Already processed';

    const row = await webhooks.lockQueueRow(emailId, tx);
    if (!row) {
      await webhooks.markEventUnmatched(eventId, tx);
      return 'Event recorded; no matching email';
    }

    // Only stamps the row does not have yet count: a repeated open of the same email is recorded, not counted.
    const { stamps, suppress } = effectOf(event);
    const fresh = stamps.filter(([column]) => row[column] === null);
    const counters = fresh.map(([, counter]) => counter);
    await webhooks.stampQueueRow(row.id, Object.fromEntries(fresh.map(([column]) => [column, occurredAt])), occurredAt, tx);

    // email.sent is already counted by the worker at send time; the webhook counts only what the worker cannot see.
    const analytics = counters.filter((c) => c !== 'sent' || row.sent_at === null);
    if (row.template_id && analytics.length > 0) {
      const inc = (c: Counter) => (analytics.includes(c) ? 1 : 0);
      const day = occurredAt.toISOString().slice(0, 10);
      await webhooks.addDailyAnalytics(row.template_id, day, { delivered: inc('delivered'), opened: inc('opened'), clicked: inc('clicked'), bounced: inc('bounced'), complained: inc('complained') }, tx);
      if (inc('opened') || inc('clicked')) await webhooks.addTemplateTotals(row.template_id, { opened: inc('opened'), clicked: inc('clicked') }, tx);
    }

    if (suppress) await webhooks.suppressAddress({ email: row.to_email, userId: row.user_id, reason: suppress, sourceEventId: eventId }, tx);
    await webhooks.markEventMatched(eventId, row.id, tx);
    return `Processed ${event.type}`;
  }

  return {
    /** Verify a delivery event and apply it once; returns the answer's message. */
    async receive(raw: string, headers: SvixHeaders): Promise<string> {
      const event = verify(raw, headers);
      return webhooks.transaction((tx) => apply(tx, headers['svix-id'], event));
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
