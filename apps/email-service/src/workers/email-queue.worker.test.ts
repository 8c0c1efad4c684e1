// The send-queue worker against a real SMTP server: claims, headers, retries, failures, and exactly-once
// delivery when a worker dies mid-batch or two workers race over the same rows.
import type { EmailDelivery } from '@story/providers';
import { createEmailQueueWorker, type EmailQueueWorker } from './email-queue.worker';
import { buildPipelineApp, createAccount, createTemplate, enqueue, FROM, type PipelineContext } from './test/pipeline-harness';

let t: PipelineContext;
beforeAll(async () => {
  t = await buildPipelineApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.database.sql`delete from email_send_queue`;
  t.smtp.received.length = 0;
  t.smtp.rejectWith(null);
});

const worker = (overrides: Partial<Parameters<typeof createEmailQueueWorker>[0]> = {}): EmailQueueWorker =>
  createEmailQueueWorker({
    db: t.database.db,
    sql: t.database.sql,
    delivery: t.delivery,
    from: FROM,
    batchSize: 50,
    maxAttempts: 3,
    unsubscribe: { baseUrl: 'https://stories.example', secret: t.config.secrets.jwtSecret },
    ...overrides,
  });

const row = async (id: string) => (await t.database.sql`select * from email_send_queue where id = ${id}`)[0]!;

it('sends due rows once, records provider ids, Message-ID and counters, and leaves future rows alone', async () => {
  const user = await createAccount(t);
  const templateId = await createTemplate(t, 'marketing');
  const due = await enqueue(t, { templateId, userId: user.id, to: user.email, category: 'marketing' });
  const later = await enqueue(t, { templateId, userId: user.id, to: user.email, scheduledFor: new Date(Date.now() + 3_600_000) });

  const result = await worker().processBatch();

  expect(result).toEqual({ claimed: 1, sent: 1, failed: 0, retried: 0, skipped: 0 });
  const sent = await row(due);
  expect(sent).toMatchObject({ status: 'sent', attempts: 1, message_id_header: `<${due}@stories.example>`, locked_by: null });
  expect(sent['provider_message_id']).toMatch(/^SINK\d+x/);
  expect(Number.isNaN(new Date(String(sent['sent_at'])).getTime())).toBe(false);
  expect((await row(later))['status']).toBe('pending');
  expect(t.smtp.received).toHaveLength(1);
  expect(t.smtp.received[0]!.header('Message-ID')).toBe(`<${due}@stories.example>`);
  const [tpl] = await t.database.sql`select total_sent from email_templates where id = ${templateId}`;
  expect(tpl!['total_sent']).toBe(1);
  const [day] = await t.database.sql`select sent from email_analytics where template_id = ${templateId}`;
  expect(day!['sent']).toBe(1);
  // Nothing left to do: a second run claims nothing.
  expect((await worker().processBatch()).claimed).toBe(0);
});

it('adds RFC 8058 List-Unsubscribe headers to marketing and reminder mail, not to transactional mail', async () => {
  const user = await createAccount(t);
  const ids = {
    marketing: await enqueue(t, { userId: user.id, to: user.email, category: 'marketing' }),
    reminder: await enqueue(t, { userId: user.id, to: user.email, category: 'reminder' }),
    transactional: await enqueue(t, { userId: user.id, to: user.email, category: 'transactional' }),
  };
  await worker().processBatch();
  const byId = (id: string) => t.smtp.received.find((m) => m.header('Message-ID') === `<${id}@stories.example>`)!;
  for (const id of [ids.marketing, ids.reminder]) {
    expect(byId(id).header('List-Unsubscribe')).toMatch(/^<https:\/\/stories\.example\/api\/email\/unsubscribe\?token=[\w%.-]+>$/);
    expect(byId(id).header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  }
  expect(byId(ids.transactional).header('List-Unsubscribe')).toBeUndefined();
  expect(byId(ids.transactional).header('List-Unsubscribe-Post')).toBeUndefined();
});

it('retries a 451 with exponential backoff, then fails after max attempts with the server’s reply', async () => {
  const templateId = await createTemplate(t, 'reminder');
  const id = await enqueue(t, { templateId, to: 'slow@example.test', category: 'reminder' });
  t.smtp.rejectWith(451);
  const w = worker();

  expect(await w.processBatch()).toMatchObject({ claimed: 1, retried: 1 });
  let r = await row(id);
  expect(r).toMatchObject({ status: 'pending', attempts: 1, locked_by: null });
  const delay1 = (new Date(String(r['next_attempt_at'])).getTime() - Date.now()) / 1000;
  expect(delay1).toBeGreaterThan(50);
  expect(delay1).toBeLessThan(70);
  // Not due yet: the next run leaves it alone.
  expect((await w.processBatch()).claimed).toBe(0);

  await t.database.sql`update email_send_queue set next_attempt_at = now() - interval '1 second' where id = ${id}`;
  expect(await w.processBatch()).toMatchObject({ retried: 1 });
  r = await row(id);
  const delay2 = (new Date(String(r['next_attempt_at'])).getTime() - Date.now()) / 1000;
  expect(r['attempts']).toBe(2);
  expect(delay2).toBeGreaterThan(110);
  expect(delay2).toBeLessThan(130);

  await t.database.sql`update email_send_queue set next_attempt_at = now() - interval '1 second' where id = ${id}`;
  expect(await w.processBatch()).toMatchObject({ failed: 1 });
  r = await row(id);
  expect(r).toMatchObject({ status: 'failed', attempts: 3, error_message: 'Mail server unavailable after 3 attempts: 451 Refused with 451 (RCPT TO)' });
  const [day] = await t.database.sql`select failed from email_analytics where template_id = ${templateId}`;
  expect(day!['failed']).toBe(1);
  expect(t.smtp.received).toHaveLength(0);
});

it('fails a 550 rejection immediately and suppresses the address', async () => {
  const id = await enqueue(t, { to: 'nobody@example.test', category: 'transactional' });
  t.smtp.rejectWith(550);
  expect(await worker().processBatch()).toMatchObject({ claimed: 1, failed: 1 });
  expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1, error_message: 'Refused by the mail server: 550 Refused with 550 (RCPT TO) (address suppressed)' });
  expect(await t.database.sql`select reason from email_suppressions where email = 'nobody@example.test'`).toEqual([{ reason: 'hard_bounce' }]);
});

it('re-checks deliverability at send time: unsubscribed category and suppressed address are cancelled', async () => {
  const user = await createAccount(t);
  await t.database.sql`insert into user_email_preferences (user_id, unsubscribed_categories) values (${user.id}, ${t.database.sql.array(['marketing'])}::text[])`;
  await t.database.sql`insert into email_suppressions (email, reason) values ('bounced@example.test', 'hard_bounce')`;
  const marketing = await enqueue(t, { userId: user.id, to: user.email, category: 'marketing' });
  const transactional = await enqueue(t, { userId: user.id, to: user.email, category: 'transactional' });
  const suppressed = await enqueue(t, { to: 'Bounced@example.test', category: 'transactional' });

  expect(await worker().processBatch()).toMatchObject({ claimed: 3, sent: 1, skipped: 2 });
  expect(await row(marketing)).toMatchObject({ status: 'cancelled', error_message: 'Not sent: unsubscribed:marketing' });
  expect(await row(suppressed)).toMatchObject({ status: 'cancelled', error_message: 'Not sent: suppressed:hard_bounce' });
  expect((await row(transactional))['status']).toBe('sent');
});

it('a worker killed mid-batch and restarted: every email arrives exactly once', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push(await enqueue(t, { to: `crash${i}@example.test`, category: 'transactional' }));
  // Worker A claims the batch, then hangs inside the provider call (as if the process froze) and is abandoned.
  let hungSends = 0;
  const hanging: EmailDelivery = {
    ...t.delivery,
    provider: 'smtp',
    send: () => {
      hungSends += 1;
      return new Promise<never>(() => undefined);
    },
  };
  const a = worker({ delivery: hanging, workerId: 'worker-a', leaseSeconds: 120, concurrency: 4 });
  void a.processBatch();
  // Wait until every lane of A is stuck in a send: from then on A touches no row (it is as good as dead).
  for (let i = 0; i < 250 && hungSends < 4; i++) await new Promise((r) => setTimeout(r, 20));
  expect(hungSends).toBe(4);
  // While A's lease runs, nobody else may take its rows.
  const b = worker({ workerId: 'worker-b' });
  expect((await b.processBatch()).claimed).toBe(0);

  const states = await t.database.sql`select status, locked_by, count(*)::int as n from email_send_queue group by 1, 2`;
  expect(states.map((s) => ({ ...s }))).toEqual([{ status: 'processing', locked_by: 'worker-a', n: 12 }]);
  await t.database.sql`update email_send_queue set lease_expires_at = now() - interval '1 second' where locked_by = 'worker-a'`;
  expect(await b.processBatch()).toMatchObject({ claimed: 12, sent: 12 });

  const arrived = t.smtp.received.map((m) => m.header('Message-ID')).sort();
  expect(arrived).toEqual(ids.map((id) => `<${id}@stories.example>`).sort());
  const [c] = await t.database.sql`select count(*)::int as n from email_send_queue where status = 'sent' and locked_by is null`;
  expect(c!['n']).toBe(12);
});

it('two workers racing over 200 rows deliver 200 messages, none twice', async () => {
  await t.database.sql`insert into email_send_queue (to_email, subject, html_content, category, scheduled_for)
    select 'race' || g || '@example.test', 'Race ' || g, '<p>x</p>', 'transactional', now() - interval '1 minute' from generate_series(1, 200) g`;
  const one = worker({ workerId: 'race-1', batchSize: 25 });
  const two = worker({ workerId: 'race-2', batchSize: 25 });
  const drain = async (w: EmailQueueWorker) => {
    let total = 0;
    for (;;) {
      const r = await w.processBatch();
      if (r.claimed === 0) return total;
      total += r.sent;
    }
  };
  const [s1, s2] = await Promise.all([drain(one), drain(two)]);
  expect(s1 + s2).toBe(200);
  expect(s1).toBeGreaterThan(0);
  expect(s2).toBeGreaterThan(0);
  expect(t.smtp.received).toHaveLength(200);
  expect(new Set(t.smtp.received.map((m) => m.header('Message-ID'))).size).toBe(200);
  const [c] = await t.database.sql`select count(*)::int as n from email_send_queue where status = 'sent'`;
  expect(c!['n']).toBe(200);
}, 60_000);

it('stop() waits for the batch in flight', async () => {
  await enqueue(t, { to: 'stop@example.test', category: 'transactional' });
  const w = worker();
  w.start(60_000);
  await new Promise((r) => setTimeout(r, 5));
  await w.stop();
  const [c] = await t.database.sql`select count(*)::int as n from email_send_queue where status = 'processing'`;
  expect(c!['n']).toBe(0);
});

it('group-commits the sent checkpoints: 30 rows of two templates in one batch, each counted once; a reused provider id falls back row by row', async () => {
  const user = await createAccount(t);
  const [a, b] = [await createTemplate(t, 'transactional'), await createTemplate(t, 'transactional')];
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) ids.push(await enqueue(t, { templateId: i % 3 === 0 ? b : a, userId: user.id, to: user.email, category: 'transactional' }));
  // A provider that answers the same id for every message: the unique provider_message_id refuses the group.
  const sameId: EmailDelivery = { ...t.delivery, send: async (m) => ({ ...(await t.delivery.send(m)), providerMessageId: 'REUSED' }) };

  const result = await worker({ concurrency: 5, delivery: sameId }).processBatch();

  expect(result).toEqual({ claimed: 30, sent: 30, failed: 0, retried: 0, skipped: 0 });
  const rows = await t.database.sql`select status, message_id_header, provider_message_id from email_send_queue where id = any(${ids}::uuid[])`;
  expect(rows.filter((r) => r['status'] === 'sent')).toHaveLength(30);
  // One row keeps the provider's id, the others fall back to their own Message-ID.
  expect(rows.filter((r) => r['provider_message_id'] === 'REUSED')).toHaveLength(1);
  expect(rows.filter((r) => r['provider_message_id'] === r['message_id_header'])).toHaveLength(29);
  const totals = await t.database.sql`select id, total_sent from email_templates where id in (${a}, ${b}) order by total_sent`;
  expect(totals.map((r) => r['total_sent'])).toEqual([10, 20]);
  const days = await t.database.sql`select sum(sent)::int as sent from email_analytics where template_id in (${a}, ${b})`;
  expect(days[0]!['sent']).toBe(30);
  expect(new Set(t.smtp.received.map((m) => m.header('Message-ID'))).size).toBe(30);
});
