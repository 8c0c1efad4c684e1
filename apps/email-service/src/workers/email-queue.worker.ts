// The send-queue worker (CONVENTIONS 9): claims due rows with a lease, looks each one up again, re-checks
// deliverability, sends it through the EmailDelivery port and checkpoints the outcome in PostgreSQL.
//
// Delivery guarantee. A row is sent only by the worker whose id is in locked_by: the claim is one atomic
// statement, the lease is renewed (and the lock re-checked) right before each send, and every outcome UPDATE
// is guarded by `locked_by = $worker`. A worker killed mid-batch leaves its rows in 'processing'; once their
// lease runs out the claim statement hands them to the next worker.
//
// At-least-once window. If a worker dies (or loses the database) AFTER the SMTP server accepted a message but
// BEFORE the success UPDATE commits, the row still looks unsent and is sent again after the lease expires.
// That window is one SMTP round trip plus one UPDATE per message. Its effect is limited by the Message-ID:
// it is fixed per row (`<queue-id@sender-domain>`), so the second copy carries the same Message-ID as the
// first; receiving MTAs and clients that de-duplicate on Message-ID (Gmail, many MDAs) show it once, and
// webhooks or logs for both copies map back to the same queue row.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import type { Database, EmailCategory } from '@story/db';
import type { Deliverability } from '@story/email';
import { checkDeliverableMany, createUnsubscribeTokens, currentUnsubscribeVersion, redactQueuedEmail, unsubscribeHeaders } from '@story/email';
import { isEmailDeliveryError, ProviderError, type EmailDelivery, type EmailMessage } from '@story/providers';
import { createEmailQueueRepository, type ClaimedRow, type Redaction } from './email-queue.repository';
import { createSentMarks } from './sent-marks';

/** Categories a recipient cannot opt out of: no List-Unsubscribe on them. */
const NON_OPTIONAL_CATEGORIES = new Set<string>(['transactional', 'system']);

export interface BatchResult {
  claimed: number;
  sent: number;
  failed: number;
  retried: number;
  skipped: number;
}

export interface WorkerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface EmailQueueWorkerOptions {
  /** Drizzle handle for the @story/email policy checks. */
  db: Database;
  /** postgres.js client for the claim and checkpoint statements (email-queue.repository.ts). */
  sql: postgres.Sql;
  delivery: EmailDelivery;
  /** Default sender, e.g. 'Family Stories <noreply@stories.example>'; its domain names the Message-IDs. */
  from: string;
  batchSize: number;
  maxAttempts: number;
  leaseSeconds?: number;
  workerId?: string;
  /** How many messages of a batch are in flight at once. */
  concurrency?: number;
  unsubscribe: { baseUrl: string; secret: string };
  log?: WorkerLog;
}

export interface EmailQueueWorker {
  readonly workerId: string;
  processBatch(batchSize?: number): Promise<BatchResult>;
  start(intervalMs: number): void;
  stop(): Promise<void>;
}

const BACKOFF_BASE_SECONDS = 60;

const silentLog: WorkerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The domain of an address like 'Name <a@b.example>' or 'a@b.example'. */
export function senderDomain(from: string): string {
  const match = /@([^\s>]+)\s*>?\s*$/.exec(from.trim());
  return match?.[1]?.toLowerCase() ?? 'localhost';
}

/**
 * What the queue row and the log say about a failure: our words for what happens next, then the mail
 * server's own reason (TLS, connection, its 4xx/5xx reply; addresses masked, never a body or a link).
 */
export function failureMessage(err: unknown, attempts: number, final: boolean): string {
  const reason = isEmailDeliveryError(err) ? `: ${err.reason}` : '';
  if (err instanceof ProviderError) {
    if (err.kind === 'rejected_input') return `Refused by the mail server${reason}`;
    if (err.kind === 'auth') return `Mail server authentication failed${reason}`;
    if (final && err.retryable) return `Mail server unavailable after ${attempts} attempts${reason}`;
    if (err.retryable) return `Mail server temporarily unavailable${reason}`;
    return `Delivery failed${reason}`;
  }
  return final ? `Delivery failed after ${attempts} attempts` : 'Delivery failed; will retry';
}

export function createEmailQueueWorker(options: EmailQueueWorkerOptions): EmailQueueWorker {
  const { sql, delivery } = options;
  const leaseSeconds = options.leaseSeconds ?? 120;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const concurrency = Math.max(1, options.concurrency ?? 5);
  const log = options.log ?? silentLog;
  const domain = senderDomain(options.from);
  const tokens = createUnsubscribeTokens(options.unsubscribe.secret);

  const queue = createEmailQueueRepository(sql, { workerId, leaseSeconds });
  const sentMarks = createSentMarks(queue, (m) => markSent(m.id, m.providerMessageId, m.messageId, m.redaction ?? null));

  /**
   * The copy a row keeps once final when it carries a credential (CONTRACTS §7): sent, failed for good or
   * cancelled, its link or code is of no use to anyone reading the stored row (libs/email credentials.ts).
   */
  function redactionOf(row: ClaimedRow): Redaction | null {
    if (!row.sensitive_variables || row.sensitive_variables.length === 0) return null;
    const r = redactQueuedEmail({ subject: row.subject, html: row.html_content, text: row.text_content, variables: row.template_variables ?? {}, sensitiveVariables: row.sensitive_variables });
    return { subject: r.subject, html: r.html, text: r.text, variables: r.variables };
  }

  async function buildMessage(row: ClaimedRow): Promise<EmailMessage> {
    const headers: Record<string, string> = { 'X-Entity-Ref-ID': row.id };
    const category = row.category ?? 'transactional';
    if (!NON_OPTIONAL_CATEGORIES.has(category)) {
      const version = row.user_id ? await currentUnsubscribeVersion(options.db, row.user_id) : 1;
      const token = tokens.sign({ userId: row.user_id, email: row.to_email, category, version });
      Object.assign(headers, unsubscribeHeaders(options.unsubscribe.baseUrl, token));
    }
    return {
      from: options.from,
      to: row.to_email,
      subject: row.subject,
      html: row.html_content,
      ...(row.text_content ? { text: row.text_content } : {}),
      headers,
      messageId: `<${row.id}@${domain}>`,
    };
  }

  async function markSent(id: string, providerMessageId: string, messageId: string, redaction: Redaction | null): Promise<boolean> {
    try {
      return await queue.markSent(id, providerMessageId, messageId, redaction);
    } catch (err) {
      // provider_message_id is unique; a server that reuses ids must not leave the row stuck in 'processing'.
      if ((err as { code?: string }).code === '23505' && providerMessageId !== messageId) return queue.markSent(id, messageId, messageId, redaction);
      throw err;
    }
  }

  async function markFailedOrRetry(row: ClaimedRow, err: unknown): Promise<{ outcome: 'failed' | 'retried'; message: string; suppressed: boolean }> {
    const attempts = row.attempts + 1;
    const maxAttempts = Math.min(row.max_attempts, options.maxAttempts);
    const retryable = err instanceof ProviderError ? err.retryable : true;
    if (retryable && attempts < maxAttempts) {
      const delay = BACKOFF_BASE_SECONDS * 2 ** row.attempts;
      const message = failureMessage(err, attempts, false);
      await queue.scheduleRetry(row.id, attempts, delay, message);
      return { outcome: 'retried', message, suppressed: false };
    }
    // A permanent refusal of the recipient is a hard bounce told at once: the address is suppressed, in
    // the transaction that fails the row, as the webhook's email.bounced would do.
    const suppress = isEmailDeliveryError(err) && err.recipientRefused;
    const message = `${failureMessage(err, attempts, true)}${suppress ? ' (address suppressed)' : ''}`;
    await queue.markFailed(row.id, attempts, message, redactionOf(row), suppress ? { email: row.to_email, userId: row.user_id, reason: 'hard_bounce' } : undefined);
    return { outcome: 'failed', message, suppressed: suppress };
  }

  /** Sends one row; the "sent" checkpoint is handed to the group commit and its promise pushed on `marks`. */
  async function processRow(row: ClaimedRow, check: Deliverability, result: BatchResult, claimedAt: number, marks: Promise<void>[]): Promise<void> {
    if (!check.allowed) {
      await queue.cancel(row.id, `Not sent: ${check.reason}`, redactionOf(row));
      result.skipped += 1;
      return;
    }
    const message = await buildMessage(row);
    // Within the first third of the lease nobody can have reclaimed the row: skip the round trip.
    if (Date.now() - claimedAt > (leaseSeconds * 1000) / 3 && !(await queue.extendLease(row.id))) {
      log.warn({ queueId: row.id, workerId }, 'email lease lost before send; left to its new owner');
      result.skipped += 1;
      return;
    }
    let sent: Awaited<ReturnType<EmailDelivery['send']>>;
    try {
      sent = await delivery.send(message);
    } catch (err) {
      const { outcome, message, suppressed } = await markFailedOrRetry(row, err);
      result[outcome] += 1;
      // The stored message is the log's reason: the server's words with addresses masked (delivery-error.ts).
      log.warn({ queueId: row.id, outcome, kind: err instanceof ProviderError ? err.kind : 'unknown', reason: message, ...(suppressed ? { suppressed } : {}) }, 'email send failed');
      return;
    }
    // The lane goes on to its next message while the checkpoint waits for the next group write.
    const marked = sentMarks.mark({ id: row.id, providerMessageId: sent.providerMessageId, messageId: sent.messageId, redaction: redactionOf(row) }).then(
      (held) => {
        result.sent += 1;
        // Sent, but the row was reclaimed meanwhile (lease ran out during a very slow send): the at-least-once case.
        if (!held) log.warn({ queueId: row.id, workerId }, 'email sent after its lease was lost');
      },
      (err: unknown) => log.error({ queueId: row.id, err: err instanceof Error ? err.message : String(err) }, 'email row processing error'),
    );
    marks.push(marked);
  }

  async function runBatch(batchSize: number): Promise<BatchResult> {
    // Taken before the claim, so the lease is never older than this says.
    const claimedAt = Date.now();
    const rows = await queue.claim(batchSize);
    const result: BatchResult = { claimed: rows.length, sent: 0, failed: 0, retried: 0, skipped: 0 };
    // The whole batch's deliverability in one round trip, right after the claim (preferences and suppressions
    // may have changed while the rows waited): one query per row was a third of each message's time.
    const checks = await checkDeliverableMany(
      options.db,
      rows.map((row) => ({ userId: row.user_id, email: row.to_email, category: (row.category ?? 'transactional') as EmailCategory })),
    );
    const marks: Promise<void>[] = [];
    let next = 0;
    const lane = async () => {
      while (next < rows.length) {
        const i = next++;
        const row = rows[i];
        const check = checks[i];
        if (!row || !check) return;
        try {
          await processRow(row, check, result, claimedAt, marks);
        } catch (err) {
          // A database error mid-row: the row stays 'processing' and is reclaimed after its lease.
          log.error({ queueId: row.id, err: err instanceof Error ? err.message : String(err) }, 'email row processing error');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, lane));
    await Promise.all(marks);
    if (rows.length > 0) log.info({ workerId, ...result }, 'email batch processed');
    return result;
  }

  // Batches of one worker run one after another (the timer and the cron route share it), so two batches of
  // the same worker id never hold the same row.
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let running = false;

  const processBatch = (batchSize = options.batchSize): Promise<BatchResult> => {
    const run = chain.then(() => runBatch(batchSize));
    chain = run.catch(() => undefined);
    return run;
  };

  return {
    workerId,
    processBatch,
    start(intervalMs: number) {
      if (running) return;
      running = true;
      const tick = () => {
        processBatch()
          .catch((err: unknown) => log.error({ err: err instanceof Error ? err.message : String(err) }, 'email batch failed'))
          .finally(() => {
            if (running) timer = setTimeout(tick, intervalMs);
          });
      };
      timer = setTimeout(tick, 0);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await chain;
    },
  };
}
