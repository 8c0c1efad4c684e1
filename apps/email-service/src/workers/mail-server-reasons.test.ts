// What an operator sees when the mail server refuses (spec 001 send queue, CONTRACTS §1 SMTP_URL): a real
// smtp-server offering STARTTLS with a self-signed certificate (as Exim does) and answering RCPT TO with
// 550 and its reply text. The worker stores and logs the server's own reason (never the body, a token or a
// full address), a permanent refusal of the recipient suppresses the address as a hard bounce, and
// SMTP_URL's tls options make the same server usable.
import { randomBytes } from 'node:crypto';
import { createEmailDelivery, type EmailDelivery } from '@story/providers';
import { testTlsCertificate } from '@story/testing';
import { createEmailQueueWorker, type WorkerLog } from './email-queue.worker';
import { buildPipelineApp, createAccount, enqueue, FROM, startSmtpSink, type PipelineContext, type SmtpSink } from './test/pipeline-harness';

let t: PipelineContext;
let tlsSink: SmtpSink;
let refusal: { code: number; text: (address: string) => string } | null = null;
const deliveries: EmailDelivery[] = [];

beforeAll(async () => {
  t = await buildPipelineApp();
  tlsSink = await startSmtpSink({
    disabledCommands: [],
    ...testTlsCertificate('self-signed'),
    onRcptTo(address, _session, callback) {
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.text(address.address)), { responseCode: refusal.code }));
    },
  });
});
afterAll(async () => {
  for (const d of deliveries) await d.close();
  await tlsSink.close();
  await t.close();
});
beforeEach(async () => {
  refusal = null;
  tlsSink.received.length = 0;
  await t.database.sql`delete from email_send_queue`;
});

/** The delivery exactly as the service builds it from SMTP_URL (libs/config parses the query options). */
function deliveryFor(query = ''): EmailDelivery {
  const delivery = createEmailDelivery({ driver: 'smtp', smtpUrl: `${tlsSink.url}${query}`, from: FROM }, { timeoutMs: 3000 });
  deliveries.push(delivery);
  return delivery;
}

function capturedLog(): WorkerLog & { lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (obj: object, msg?: string) => void lines.push(JSON.stringify({ level, msg, ...obj }));
  return { lines, info: write('info'), warn: write('warn'), error: write('error') };
}

const worker = (delivery: EmailDelivery, log: WorkerLog) =>
  createEmailQueueWorker({
    db: t.database.db,
    sql: t.database.sql,
    delivery,
    from: FROM,
    batchSize: 10,
    maxAttempts: 3,
    unsubscribe: { baseUrl: 'https://stories.example', secret: t.config.secrets.jwtSecret },
    log,
  });

const row = async (id: string) => (await t.database.sql`select status, attempts, error_message from email_send_queue where id = ${id}`)[0]!;
const SECRET_TOKEN = 'tok_9f8e7d6c5b4a';

/** A queue row whose body carries a token, as an invitation or a magic link would. */
async function enqueueWithToken(to: string, userId: string | null = null): Promise<string> {
  const id = await enqueue(t, { to, userId, category: 'transactional', subject: 'Your sign-in link' });
  await t.database.sql`update email_send_queue set html_content = ${`<a href="https://stories.example/auth/magic?token=${SECRET_TOKEN}">Sign in</a>`} where id = ${id}`;
  return id;
}

it('stores and logs "self-signed certificate" when STARTTLS fails, then sends once SMTP_URL accepts that certificate', async () => {
  const id = await enqueueWithToken('grandpa@example.test');
  const log = capturedLog();
  expect(await worker(deliveryFor(), log).processBatch()).toMatchObject({ claimed: 1, retried: 1, sent: 0 });
  const waiting = await row(id);
  expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
  expect(waiting['error_message']).toMatch(/^Mail server temporarily unavailable: TLS: self-signed certificate \(.*while connecting\)$/);
  const failed = log.lines.find((l) => l.includes('email send failed'))!;
  expect(JSON.parse(failed)).toMatchObject({ level: 'warn', queueId: id, outcome: 'retried', reason: waiting['error_message'] });
  // Neither the body's token nor the address reaches the log or the row.
  for (const text of [...log.lines, String(waiting['error_message'])]) {
    expect(text).not.toContain(SECRET_TOKEN);
    expect(text).not.toContain('grandpa@example.test');
  }
  expect(tlsSink.received).toHaveLength(0);

  // The operator points SMTP_URL at the relay with tls.rejectUnauthorized=false; the retry goes through, once.
  await t.database.sql`update email_send_queue set next_attempt_at = now() - interval '1 second' where id = ${id}`;
  expect(await worker(deliveryFor('?tls.rejectUnauthorized=false'), capturedLog()).processBatch()).toMatchObject({ claimed: 1, sent: 1 });
  expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2, error_message: null });
  expect(tlsSink.received).toHaveLength(1);
});

it('a 550 refusal of the recipient stores the server’s reply, suppresses the address as a hard bounce, and the next email to it is not sent', async () => {
  const user = await createAccount(t, `gone.${randomBytes(3).toString('hex')}@example.test`);
  refusal = { code: 550, text: (address) => `5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table` };
  const id = await enqueueWithToken(user.email, user.id);
  const log = capturedLog();
  const delivery = deliveryFor('?tls.rejectUnauthorized=false');
  expect(await worker(delivery, log).processBatch()).toMatchObject({ claimed: 1, failed: 1 });

  const failed = await row(id);
  const masked = `${user.email[0]}***@example.test`;
  expect(failed).toMatchObject({
    status: 'failed',
    attempts: 1,
    error_message: `Refused by the mail server: 550 5.1.1 <${masked}>: Recipient address rejected: User unknown in virtual mailbox table (RCPT TO) (address suppressed)`,
  });
  const [suppression] = await t.database.sql`select reason from email_suppressions where email = ${user.email}`;
  expect(suppression).toMatchObject({ reason: 'hard_bounce' });
  const [prefs] = await t.database.sql`select suppression_reason, suppressed_at is not null as suppressed from user_email_preferences where user_id = ${user.id}`;
  expect(prefs).toMatchObject({ suppression_reason: 'hard_bounce', suppressed: true });
  expect(JSON.parse(log.lines.find((l) => l.includes('email send failed'))!)).toMatchObject({ outcome: 'failed', suppressed: true, kind: 'rejected_input' });
  expect(log.lines.join('\n')).not.toContain(user.email);

  // The next email to that address never reaches the server.
  refusal = null;
  const next = await enqueue(t, { to: user.email.toUpperCase(), category: 'transactional' });
  expect(await worker(delivery, capturedLog()).processBatch()).toMatchObject({ claimed: 1, skipped: 1, sent: 0 });
  expect(await row(next)).toMatchObject({ status: 'cancelled', error_message: 'Not sent: suppressed:hard_bounce' });
  expect(tlsSink.received).toHaveLength(0);
});

it('a policy refusal (550 5.7.1 relaying denied) fails the email with its reason and suppresses nobody', async () => {
  refusal = { code: 550, text: () => '5.7.1 Relaying denied' };
  const id = await enqueue(t, { to: 'someone@example.test', category: 'transactional' });
  expect(await worker(deliveryFor('?tls.rejectUnauthorized=false'), capturedLog()).processBatch()).toMatchObject({ failed: 1 });
  expect(await row(id)).toMatchObject({ status: 'failed', error_message: 'Refused by the mail server: 550 5.7.1 Relaying denied (RCPT TO)' });
  expect(await t.database.sql`select 1 from email_suppressions where email = 'someone@example.test'`).toHaveLength(0);
});

it('a 4xx reply keeps the email for a retry with the server’s words', async () => {
  refusal = { code: 451, text: () => '4.7.1 Greylisted, come back in 5 minutes' };
  const id = await enqueue(t, { to: 'later@example.test', category: 'transactional' });
  expect(await worker(deliveryFor('?tls.rejectUnauthorized=false'), capturedLog()).processBatch()).toMatchObject({ retried: 1 });
  expect(await row(id)).toMatchObject({ status: 'pending', error_message: 'Mail server temporarily unavailable: 451 4.7.1 Greylisted, come back in 5 minutes (RCPT TO)' });
  expect(await t.database.sql`select 1 from email_suppressions where email = 'later@example.test'`).toHaveLength(0);
});
