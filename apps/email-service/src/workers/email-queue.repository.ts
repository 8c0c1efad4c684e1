// SQL of the send queue as one worker sees it (postgres.js). Every outcome write is guarded by
// `locked_by = <this worker> and status = 'processing'`: a worker whose lease ran out and whose row was
// reclaimed writes nothing, so only the row's current holder records a result.
import type { Sql, TransactionSql } from 'postgres';
import { claimRows, extendLease } from '@story/jobs';

/**
 * The stored copy a credential email keeps once final (libs/email redactQueuedEmail): written by the same
 * statement that records the outcome, so a final row never holds a usable credential (CONTRACTS §7).
 */
export interface Redaction {
  subject: string;
  html: string;
  text: string | null;
  variables: Record<string, unknown>;
}

/** A claimed row: everything the worker needs to re-check, build and send the message. */
export interface ClaimedRow {
  id: string;
  template_id: string | null;
  user_id: string | null;
  to_email: string;
  subject: string;
  html_content: string;
  text_content: string | null;
  template_variables: Record<string, unknown>;
  /** Credential variables marked at enqueue: the final state stores the copy without them. */
  sensitive_variables: string[];
  category: string | null;
  attempts: number;
  max_attempts: number;
}

const QUEUE_TABLE = { table: 'email_send_queue', runningStatus: 'processing' } as const;

/** An address to stop mailing (email_suppressions' reasons: a refusal at RCPT TO is a hard bounce). */
export interface Suppression {
  email: string;
  userId: string | null;
  reason: 'hard_bounce';
}

/**
 * libs/email suppressAddress's effect inside this transaction (it runs its own Drizzle transaction on
 * another connection; the failure and the suppression must commit together): the address row, and the
 * owning account's suppressed_at, as the webhook repository does for email.bounced.
 */
async function suppressAddress(tx: TransactionSql, input: Suppression): Promise<void> {
  const email = input.email.trim().toLowerCase();
  await tx`insert into email_suppressions (email, reason) values (${email}, ${input.reason})
    on conflict (email) do update set reason = excluded.reason`;
  // The row's account when it still exists, else the account holding the address (if any).
  const [owner] = await tx<{ id: string }[]>`select id from accounts
     where ${input.userId ? tx`id = ${input.userId} or ` : tx``}lower(email) = ${email}
     order by ${input.userId ? tx`(id = ${input.userId}) desc` : tx`id`} limit 1`;
  if (!owner) return;
  await tx`insert into user_email_preferences (user_id, suppressed_at, suppression_reason) values (${owner.id}, now(), ${input.reason})
    on conflict (user_id) do update set suppressed_at = coalesce(user_email_preferences.suppressed_at, now()),
      suppression_reason = excluded.suppression_reason, updated_at = now()`;
}

export function createEmailQueueRepository(sql: Sql, { workerId, leaseSeconds }: { workerId: string; leaseSeconds: number }) {
  /**
   * The SET items of a final outcome: the redacted copy, or redacted_at left as it is when there is none.
   * JSON goes in as text with a ::jsonb cast (the Drizzle client shares this postgres.js instance and makes
   * its json serializer a pass-through; libs/jobs job-queue.ts says the same).
   */
  const redactionSet = (redaction: Redaction | null) =>
    redaction
      ? sql`subject = ${redaction.subject}, html_content = ${redaction.html}, text_content = ${redaction.text},
            template_variables = ${JSON.stringify(redaction.variables)}::jsonb, redacted_at = now()`
      : sql`redacted_at = redacted_at`;
  return {
    /**
     * One statement claims the batch (libs/jobs claimRows: an UPDATE over SELECT ... FOR UPDATE SKIP LOCKED).
     * Claimable: pending rows that are due, and rows left in 'processing' by a dead worker once their lease
     * has passed. The rows stay in email_send_queue; only the claim and the lease are the runner's.
     */
    claim(limit: number): Promise<ClaimedRow[]> {
      return claimRows<ClaimedRow[]>(sql, {
        ...QUEUE_TABLE,
        workerId,
        leaseSeconds,
        limit,
        claimable: sql`(status = 'pending' and scheduled_for <= now() and (next_attempt_at is null or next_attempt_at <= now()))
                        or (status = 'processing' and lease_expires_at < now())`,
        orderBy: 'scheduled_for',
        returning: sql`id, template_id, user_id, to_email, subject, html_content, text_content, template_variables, sensitive_variables, category, attempts, max_attempts`,
      });
    },

    /** Extend the lease; false when the row is no longer ours (lease expired and reclaimed). */
    extendLease(id: string): Promise<boolean> {
      return extendLease(sql, { ...QUEUE_TABLE, id, workerId, leaseSeconds });
    },

    /** Record a send; false when this worker no longer held the row. Throws 23505 when the provider id is taken. */
    async markSent(id: string, providerMessageId: string, messageId: string, redaction: Redaction | null = null): Promise<boolean> {
      // One statement, so one round trip and atomic: data-modifying CTEs all run, and the counters move only
      // when this worker still held the row (the guarded update returned it).
      const [result] = await sql<{ updated: number }[]>`
        with done as (
          update email_send_queue
             set status = 'sent', sent_at = now(), provider_message_id = ${providerMessageId}, message_id_header = ${messageId},
                 attempts = attempts + 1, error_message = null, next_attempt_at = null, updated_at = now(), locked_by = null, locked_at = null, lease_expires_at = null,
                 ${redactionSet(redaction)}
           where id = ${id} and locked_by = ${workerId} and status = 'processing'
          returning template_id
        ),
        template_total as (
          update email_templates set total_sent = total_sent + 1 where id = (select template_id from done)
        ),
        day_total as (
          insert into email_analytics (template_id, date, sent)
          select template_id, (now() at time zone 'utc')::date, 1 from done where template_id is not null
          on conflict (template_id, date) do update set sent = email_analytics.sent + 1, updated_at = now()
        )
        select count(*)::int as updated from done`;
      return result?.updated === 1;
    },

    /**
     * markSent for several rows in one statement (the worker's group commit); answers the ids this worker
     * still held. Throws 23505 when a provider id is taken: the caller then marks them one by one.
     */
    async markSentMany(sent: readonly { id: string; providerMessageId: string; messageId: string; redaction?: Redaction | null }[]): Promise<Set<string>> {
      // Rows without a credential carry nulls (and redact = 0): their stored copy is left as it is. (postgres.js
      // sends a JS boolean array as one boolean, so the flag travels as int[].)
      const r = sent.map((s) => s.redaction ?? null);
      const rows = await sql<{ id: string }[]>`
        with input as (
          select * from unnest(${sent.map((s) => s.id)}::uuid[], ${sent.map((s) => s.providerMessageId)}::text[], ${sent.map((s) => s.messageId)}::text[],
                               ${r.map((x) => (x !== null ? 1 : 0))}::int[], ${r.map((x) => x?.subject ?? null)}::text[], ${r.map((x) => x?.html ?? null)}::text[],
                               ${r.map((x) => x?.text ?? null)}::text[], ${r.map((x) => (x ? JSON.stringify(x.variables) : null))}::text[])
                   as t(id, provider_message_id, message_id, redact, subject, html, text_content, variables)
        ),
        done as (
          update email_send_queue q
             set status = 'sent', sent_at = now(), provider_message_id = i.provider_message_id, message_id_header = i.message_id,
                 attempts = q.attempts + 1, error_message = null, next_attempt_at = null, updated_at = now(), locked_by = null, locked_at = null, lease_expires_at = null,
                 subject = case when i.redact = 1 then i.subject else q.subject end,
                 html_content = case when i.redact = 1 then i.html else q.html_content end,
                 text_content = case when i.redact = 1 then i.text_content else q.text_content end,
                 template_variables = case when i.redact = 1 then i.variables::jsonb else q.template_variables end,
                 redacted_at = case when i.redact = 1 then now() else q.redacted_at end
            from input i
           where q.id = i.id and q.locked_by = ${workerId} and q.status = 'processing'
          returning q.id, q.template_id
        ),
        per_template as (select template_id, count(*)::int as n from done where template_id is not null group by template_id),
        template_total as (
          update email_templates t set total_sent = total_sent + p.n from per_template p where t.id = p.template_id
        ),
        day_total as (
          insert into email_analytics (template_id, date, sent)
          select template_id, (now() at time zone 'utc')::date, n from per_template
          on conflict (template_id, date) do update set sent = email_analytics.sent + excluded.sent, updated_at = now()
        )
        select id from done`;
      return new Set(rows.map((r) => r.id));
    },

    /** Back to pending, due again after `delaySeconds`. */
    async scheduleRetry(id: string, attempts: number, delaySeconds: number, errorMessage: string): Promise<void> {
      await sql`update email_send_queue
           set status = 'pending', attempts = ${attempts}, next_attempt_at = now() + make_interval(secs => ${delaySeconds}),
               error_message = ${errorMessage}, updated_at = now(), locked_by = null, locked_at = null, lease_expires_at = null
         where id = ${id} and locked_by = ${workerId} and status = 'processing'`;
    },

    /**
     * Failed for good, counted in the template's figures of the day in the same transaction; with
     * `suppress`, the address is suppressed there too (only when this worker still held the row).
     */
    async markFailed(id: string, attempts: number, errorMessage: string, redaction: Redaction | null = null, suppress?: Suppression): Promise<void> {
      await sql.begin(async (tx) => {
        const updated = await tx<{ template_id: string | null }[]>`update email_send_queue
             set status = 'failed', attempts = ${attempts}, next_attempt_at = null,
                 error_message = ${errorMessage}, updated_at = now(), locked_by = null, locked_at = null, lease_expires_at = null,
                 ${redactionSet(redaction)}
           where id = ${id} and locked_by = ${workerId} and status = 'processing'
          returning template_id`;
        if (updated.length === 0) return;
        const templateId = updated[0]?.template_id;
        if (templateId) {
          await tx`insert into email_analytics (template_id, date, failed) values (${templateId}, (now() at time zone 'utc')::date, 1)
            on conflict (template_id, date) do update set failed = email_analytics.failed + 1, updated_at = now()`;
        }
        if (suppress) await suppressAddress(tx, suppress);
      });
    },

    /** Not sent and never will be (the recipient may no longer receive it). */
    async cancel(id: string, errorMessage: string, redaction: Redaction | null = null): Promise<void> {
      await sql`update email_send_queue set status = 'cancelled', error_message = ${errorMessage},
          updated_at = now(), locked_by = null, locked_at = null, lease_expires_at = null, ${redactionSet(redaction)}
        where id = ${id} and locked_by = ${workerId} and status = 'processing'`;
    },
  };
}

export type EmailQueueRepository = ReturnType<typeof createEmailQueueRepository>;
