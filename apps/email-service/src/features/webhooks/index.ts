// POST /api/webhooks/email/resend (spec 001 Events, CONTRACTS §6): delivery events verified with the Svix
// scheme over the RAW body. Bad, missing or stale signature (5 minutes) or no EMAIL_WEBHOOK_SECRET → 401 and
// nothing recorded. Each svix-id is applied once: the event insert is ON CONFLICT (svix_id) DO NOTHING and
// everything an event changes happens in that same transaction.
import { Webhook } from 'svix';
import { z } from 'zod';
import type postgres from 'postgres';
import type { DbClient } from '@story/db';
import { AppError, routeLimit, type App } from '@story/http';
import type { EmailServiceConfig } from '../../config';
import { suppressAddressInTransaction } from './suppress-in-transaction';

const eventSchema = z.object({
  type: z.string().min(1),
  created_at: z.string().datetime({ offset: true }),
  data: z
    .object({
      email_id: z.string().min(1),
      to: z.union([z.string(), z.array(z.string())]),
      subject: z.string(),
    })
    .passthrough(),
});
export type DeliveryEvent = z.infer<typeof eventSchema>;

interface QueueRow {
  id: string;
  template_id: string | null;
  user_id: string | null;
  to_email: string;
  sent_at: Date | null;
  delivered_at: Date | null;
  opened_at: Date | null;
  clicked_at: Date | null;
  bounced_at: Date | null;
  complained_at: Date | null;
}

type Counter = 'sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained';

/** A bounce the provider marks as temporary (soft) does not suppress the address. */
function isSoftBounce(data: Record<string, unknown>): boolean {
  const bounce = data['bounce'];
  const type = bounce && typeof bounce === 'object' ? (bounce as Record<string, unknown>)['type'] : undefined;
  return typeof type === 'string' && /transient|soft|temporary/i.test(type);
}

/** Apply one verified event; returns the response message. Runs inside one transaction. */
export async function applyDeliveryEvent(tx: postgres.TransactionSql, svixId: string, event: DeliveryEvent): Promise<string> {
  const occurredAt = new Date(event.created_at);
  const emailId = event.data.email_id;
  const [inserted] = await tx<{ id: string }[]>`
    insert into email_delivery_events (svix_id, type, provider_message_id, payload, occurred_at)
    values (${svixId}, ${event.type}, ${emailId}, ${JSON.stringify(event)}::jsonb, ${occurredAt.toISOString()}::timestamptz)
    on conflict (svix_id) do nothing returning id`;
  if (!inserted) return 'Already processed';

  const bracketed = emailId.startsWith('<') ? emailId : `<${emailId}>`;
  const [row] = await tx<QueueRow[]>`
    select id, template_id, user_id, to_email, sent_at, delivered_at, opened_at, clicked_at, bounced_at, complained_at
      from email_send_queue
     where provider_message_id = ${emailId} or message_id_header in (${emailId}, ${bracketed})
     order by (provider_message_id = ${emailId}) desc nulls last
     limit 1
     for update`;
  if (!row) {
    await tx`update email_delivery_events set matched = false, processed_at = now() where id = ${inserted.id}`;
    return 'Event recorded; no matching email';
  }

  const counters: Counter[] = [];
  const set: Record<string, Date> = {};
  const stamp = (column: keyof QueueRow & string, counter: Counter) => {
    if (row[column] === null) {
      set[column] = occurredAt;
      counters.push(counter);
    }
  };
  let suppress: 'hard_bounce' | 'complaint' | undefined;
  switch (event.type) {
    case 'email.sent':
      stamp('sent_at', 'sent');
      break;
    case 'email.delivered':
      stamp('delivered_at', 'delivered');
      break;
    case 'email.opened':
      stamp('opened_at', 'opened');
      break;
    case 'email.clicked':
      stamp('clicked_at', 'clicked');
      stamp('opened_at', 'opened');
      break;
    case 'email.bounced':
      stamp('bounced_at', 'bounced');
      if (!isSoftBounce(event.data)) suppress = 'hard_bounce';
      break;
    case 'email.complained':
      stamp('complained_at', 'complained');
      suppress = 'complaint';
      break;
    default:
      // Unknown types are kept (matched) but change nothing.
      break;
  }

  const ts = (column: string) => set[column]?.toISOString() ?? null;
  await tx`update email_send_queue
      set sent_at = coalesce(sent_at, ${ts('sent_at')}::timestamptz),
          delivered_at = coalesce(delivered_at, ${ts('delivered_at')}::timestamptz),
          opened_at = coalesce(opened_at, ${ts('opened_at')}::timestamptz),
          clicked_at = coalesce(clicked_at, ${ts('clicked_at')}::timestamptz),
          bounced_at = coalesce(bounced_at, ${ts('bounced_at')}::timestamptz),
          complained_at = coalesce(complained_at, ${ts('complained_at')}::timestamptz),
          last_event_at = greatest(last_event_at, ${occurredAt.toISOString()}::timestamptz), updated_at = now()
    where id = ${row.id}`;

  // email.sent is already counted by the worker at send time; the webhook counts only what the worker cannot see.
  const analytics = counters.filter((c) => c !== 'sent' || row.sent_at === null);
  if (row.template_id && analytics.length > 0) {
    const day = occurredAt.toISOString().slice(0, 10);
    const inc = (c: Counter) => (analytics.includes(c) ? 1 : 0);
    await tx`insert into email_analytics (template_id, date, delivered, opened, clicked, bounced, complained)
      values (${row.template_id}, ${day}, ${inc('delivered')}, ${inc('opened')}, ${inc('clicked')}, ${inc('bounced')}, ${inc('complained')})
      on conflict (template_id, date) do update set
        delivered = email_analytics.delivered + excluded.delivered, opened = email_analytics.opened + excluded.opened,
        clicked = email_analytics.clicked + excluded.clicked, bounced = email_analytics.bounced + excluded.bounced,
        complained = email_analytics.complained + excluded.complained, updated_at = now()`;
    if (inc('opened') || inc('clicked')) {
      await tx`update email_templates set total_opened = total_opened + ${inc('opened')}, total_clicked = total_clicked + ${inc('clicked')}
        where id = ${row.template_id}`;
    }
  }

  if (suppress) await suppressAddressInTransaction(tx, { email: row.to_email, userId: row.user_id, reason: suppress, sourceEventId: inserted.id });
  await tx`update email_delivery_events set matched = true, queue_id = ${row.id}, processed_at = now() where id = ${inserted.id}`;
  return `Processed ${event.type}`;
}

export function webhookRoutes({ config, database }: { config: EmailServiceConfig; database: DbClient }) {
  return async function webhooksPlugin(app: App) {
    // Signature verification needs the exact bytes: JSON stays a string in this plugin only.
    app.removeContentTypeParser(['application/json']);
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    app.post('/api/webhooks/email/resend', {
      config: { rateLimit: routeLimit('email.webhook', config.rateLimit.scale) },
      schema: { tags: ['webhooks'], summary: 'Delivery events from the email provider (Svix-signed)' },
      handler: async (request, reply) => {
        const secret = config.secrets.emailWebhookSecret;
        const raw = typeof request.body === 'string' ? request.body : '';
        const header = (name: string) => {
          const v = request.headers[name];
          return typeof v === 'string' ? v : '';
        };
        if (!secret) throw new AppError('unauthorized', 'Unauthorized');
        try {
          new Webhook(secret).verify(raw, { 'svix-id': header('svix-id'), 'svix-timestamp': header('svix-timestamp'), 'svix-signature': header('svix-signature') });
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
        const message = await database.sql.begin((tx) => applyDeliveryEvent(tx, header('svix-id'), parsed.data));
        return reply.send({ success: true, message });
      },
    });
  };
}
