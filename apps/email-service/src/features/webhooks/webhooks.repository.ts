// SQL of the delivery webhook (postgres.js). Every method takes the transaction the service opened: an event
// is applied exactly once because its svix-id insert and everything it changes commit together, or not at all.
import type { Sql, TransactionSql } from 'postgres';

type Tx = Sql | TransactionSql;

/** The queue row an event refers to, with the stamps that decide what the event still counts. */
export interface DeliveryQueueRow {
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

export type StampColumn = 'sent_at' | 'delivered_at' | 'opened_at' | 'clicked_at' | 'bounced_at' | 'complained_at';

/** Increments of one day's email_analytics row (0 or 1 each). */
export interface AnalyticsIncrements {
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
}

export interface SuppressionInput {
  email: string;
  userId: string | null;
  reason: 'hard_bounce' | 'complaint' | 'manual';
  sourceEventId: string | null;
}

export function createWebhooksRepository(sql: Sql) {
  return {
    /** Run `fn` in one transaction. */
    transaction<T>(fn: (tx: TransactionSql) => Promise<T>): Promise<T> {
      return sql.begin(fn) as Promise<T>;
    },

    /** Record the event under its svix-id; null when that id was seen before (a replay). */
    async insertEvent(input: { svixId: string; type: string; providerMessageId: string; payload: unknown; occurredAt: Date }, tx: Tx = sql): Promise<string | null> {
      const [inserted] = await tx<{ id: string }[]>`
        insert into email_delivery_events (svix_id, type, provider_message_id, payload, occurred_at)
        values (${input.svixId}, ${input.type}, ${input.providerMessageId}, ${JSON.stringify(input.payload)}::jsonb, ${input.occurredAt.toISOString()}::timestamptz)
        on conflict (svix_id) do nothing returning id`;
      return inserted?.id ?? null;
    },

    /**
     * The queue row of a provider email id, locked for this transaction. Providers report either their own
     * id or our Message-ID (with or without angle brackets); a match on the provider id wins.
     */
    async lockQueueRow(emailId: string, tx: Tx = sql): Promise<DeliveryQueueRow | undefined> {
      const bracketed = emailId.startsWith('<') ? emailId : `<${emailId}>`;
      const [row] = await tx<DeliveryQueueRow[]>`
        select id, template_id, user_id, to_email, sent_at, delivered_at, opened_at, clicked_at, bounced_at, complained_at
          from email_send_queue
         where provider_message_id = ${emailId} or message_id_header in (${emailId}, ${bracketed})
         order by (provider_message_id = ${emailId}) desc nulls last
         limit 1
         for update`;
      return row;
    },

    async markEventUnmatched(eventId: string, tx: Tx = sql): Promise<void> {
      await tx`update email_delivery_events set matched = false, processed_at = now() where id = ${eventId}`;
    },

    async markEventMatched(eventId: string, queueId: string, tx: Tx = sql): Promise<void> {
      await tx`update email_delivery_events set matched = true, queue_id = ${queueId}, processed_at = now() where id = ${eventId}`;
    },

    /** Set the given stamps where still empty (coalesce keeps a first time) and move last_event_at forward. */
    async stampQueueRow(queueId: string, stamps: Partial<Record<StampColumn, Date>>, occurredAt: Date, tx: Tx = sql): Promise<void> {
      const ts = (column: StampColumn) => stamps[column]?.toISOString() ?? null;
      await tx`update email_send_queue
          set sent_at = coalesce(sent_at, ${ts('sent_at')}::timestamptz),
              delivered_at = coalesce(delivered_at, ${ts('delivered_at')}::timestamptz),
              opened_at = coalesce(opened_at, ${ts('opened_at')}::timestamptz),
              clicked_at = coalesce(clicked_at, ${ts('clicked_at')}::timestamptz),
              bounced_at = coalesce(bounced_at, ${ts('bounced_at')}::timestamptz),
              complained_at = coalesce(complained_at, ${ts('complained_at')}::timestamptz),
              last_event_at = greatest(last_event_at, ${occurredAt.toISOString()}::timestamptz), updated_at = now()
        where id = ${queueId}`;
    },

    /** Add to a template's figures of one UTC day (YYYY-MM-DD), creating the day's row on first use. */
    async addDailyAnalytics(templateId: string, day: string, inc: AnalyticsIncrements, tx: Tx = sql): Promise<void> {
      await tx`insert into email_analytics (template_id, date, delivered, opened, clicked, bounced, complained)
        values (${templateId}, ${day}, ${inc.delivered}, ${inc.opened}, ${inc.clicked}, ${inc.bounced}, ${inc.complained})
        on conflict (template_id, date) do update set
          delivered = email_analytics.delivered + excluded.delivered, opened = email_analytics.opened + excluded.opened,
          clicked = email_analytics.clicked + excluded.clicked, bounced = email_analytics.bounced + excluded.bounced,
          complained = email_analytics.complained + excluded.complained, updated_at = now()`;
    },

    async addTemplateTotals(templateId: string, inc: { opened: number; clicked: number }, tx: Tx = sql): Promise<void> {
      await tx`update email_templates set total_opened = total_opened + ${inc.opened}, total_clicked = total_clicked + ${inc.clicked}
        where id = ${templateId}`;
    },

    /**
     * suppressAddress inside the caller's transaction. @story/email's suppressAddress runs its own Drizzle
     * transaction on another connection; the webhook needs the suppression in the SAME transaction as the
     * svix-id insert (a replay is ignored, so a suppression lost after the event committed would never come
     * back). Same effect as the library's: the address row (reason updated) and the owning account's suppressed_at.
     */
    async suppressAddress(input: SuppressionInput, tx: Tx = sql): Promise<void> {
      const email = input.email.trim().toLowerCase();
      await tx`insert into email_suppressions (email, reason, source_event_id) values (${email}, ${input.reason}, ${input.sourceEventId})
        on conflict (email) do update set reason = excluded.reason, source_event_id = coalesce(excluded.source_event_id, email_suppressions.source_event_id)`;
      const [owner] = input.userId ? [{ id: input.userId }] : await tx<{ id: string }[]>`select id from accounts where lower(email) = ${email} limit 1`;
      if (!owner) return;
      await tx`insert into user_email_preferences (user_id, suppressed_at, suppression_reason) values (${owner.id}, now(), ${input.reason})
        on conflict (user_id) do update set suppressed_at = coalesce(user_email_preferences.suppressed_at, now()),
          suppression_reason = excluded.suppression_reason, updated_at = now()`;
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
