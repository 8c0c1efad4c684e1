// Fault injection: the SMTP server down and back. The real send-queue worker delivers through nodemailer
// to a real smtp-server on 127.0.0.1, which is stopped: every due email is retried with backoff (pending,
// next_attempt_at in the future, attempts counted), none fails for good. The server comes back on the same
// port, the backoff passes, and each email goes exactly once (counted by Message-ID at the sink).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createEmailQueueWorker } from '../workers/email-queue.worker';
import { buildPipelineApp, createAccount, enqueue, FROM, type PipelineContext } from '../workers/test/pipeline-harness';

/** A second sink on a given port (the one the app's delivery already points at), counting Message-IDs. */
async function sinkOnPort(port: number): Promise<{ messageIds: string[]; close(): Promise<void> }> {
  const messageIds: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Close at once at the end, even with the worker's pooled connection still open.
    closeTimeout: 100,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const head = Buffer.concat(chunks).toString('utf8').split(/\r?\n\r?\n/)[0]!;
        messageIds.push(/^message-id:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? 'none');
        callback(null, `Ok: queued as BACK${messageIds.length}`);
      });
    },
  });
  server.on('error', () => undefined);
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  expect((server.server.address() as AddressInfo).port).toBe(port);
  return { messageIds, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('fault: SMTP down and back (email-service send queue)', () => {
  let t: PipelineContext;
  beforeAll(async () => {
    t = await buildPipelineApp();
  });
  afterAll(() => t.close());

  it('emails wait with backoff while the server is down, then go exactly once', async () => {
    const worker = createEmailQueueWorker({
      db: t.database.db,
      sql: t.database.sql,
      delivery: t.delivery,
      from: FROM,
      batchSize: 50,
      maxAttempts: 5,
      unsubscribe: { baseUrl: 'https://stories.example', secret: t.config.secrets.jwtSecret },
    });
    const user = await createAccount(t);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await enqueue(t, { userId: user.id, to: user.email, category: 'transactional', subject: `Receipt ${i}` }));

    const port = Number(new URL(t.smtp.url).port);
    // smtp-server stops listening at once but waits up to 30 s for open connections before its close
    // resolves: the port is what matters here, so do not wait for the rest.
    const closing = t.smtp.close();
    await Promise.race([closing, new Promise((r) => setTimeout(r, 500))]);
    // Down: nothing is delivered, nothing fails for good, each row waits for a later attempt.
    const down = await worker.processBatch();
    expect(down).toMatchObject({ claimed: 6, sent: 0, failed: 0, retried: 6 });
    const waiting = await t.database.sql`select status, attempts, error_message, next_attempt_at > now() as later from email_send_queue where id = any(${ids})`;
    for (const r of waiting) expect(r).toMatchObject({ status: 'pending', attempts: 1, later: true, error_message: expect.stringMatching(/temporarily unavailable|will retry/) });
    // Still down and the backoff not passed: a second round claims nothing (no hot loop against a dead server).
    expect((await worker.processBatch()).claimed).toBe(0);

    const back = await sinkOnPort(port);
    try {
      // Let the backoff pass (rather than wait a minute), then run the worker again.
      await t.database.sql`update email_send_queue set next_attempt_at = now() - interval '1 second' where id = any(${ids})`;
      const up = await worker.processBatch();
      expect(up).toMatchObject({ claimed: 6, sent: 6, failed: 0 });
      expect((await worker.processBatch()).claimed).toBe(0);
      const sent = await t.database.sql`select status, attempts, message_id_header from email_send_queue where id = any(${ids})`;
      expect(sent.every((r) => r['status'] === 'sent' && r['attempts'] === 2)).toBe(true);
      // Exactly once each, by Message-ID: six distinct ids, each the row's own.
      expect(back.messageIds).toHaveLength(6);
      expect(new Set(back.messageIds)).toEqual(new Set(ids.map((id) => `<${id}@stories.example>`)));
      expect(t.smtp.received).toHaveLength(0);
      process.stdout.write(`[faults] smtp down and back: ${ids.length} emails, ${down.retried} retried while down, ${up.sent} sent once after, 0 lost, 0 duplicated\n`);
    } finally {
      await back.close();
      // The harness closes its own sink again at the end: give it a server that closes cleanly.
      t.smtp.close = () => closing;
    }
  });
});
