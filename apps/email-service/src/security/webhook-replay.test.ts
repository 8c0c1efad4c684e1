// CONTRACTS §6: delivery webhooks (Svix scheme, 5 minutes tolerance) refuse replays.
// Beyond the cases of features/webhooks/webhooks.test.ts (a replayed svix-id changes nothing; bad, missing,
// tampered and 10-minute-old signatures get 401 and change nothing), here: the tolerance edges both ways
// (a timestamp from the future too), a signature moved to another svix-id or timestamp, the same svix-id
// re-signed over a different body, duplicates arriving concurrently, and a replay sent to a second replica.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'svix';
import type { App } from '@story/http';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildPipelineApp, createAccount, createTemplate, enqueue, WEBHOOK_SECRET, type PipelineContext } from '../workers/test/pipeline-harness';
import { testEnv } from '@story/testing';

let t: PipelineContext;
let replica: App;
beforeAll(async () => {
  t = await buildPipelineApp();
  replica = await buildApp({ config: loadConfig(testEnv({ EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET })), deps: { database: t.database } });
  await replica.ready();
});
afterAll(async () => {
  await replica.close();
  await t.close();
});

const URL = '/api/webhooks/email/resend';
const event = (type: string, emailId: string) => JSON.stringify({ type, created_at: new Date().toISOString(), data: { email_id: emailId, to: 'x@example.test', subject: 'Hi' } });

function request(payload: string, o: { id?: string; at?: Date; signature?: string } = {}) {
  const id = o.id ?? `msg_${randomUUID()}`;
  const at = o.at ?? new Date();
  return {
    method: 'POST' as const,
    url: URL,
    payload,
    headers: { 'content-type': 'application/json', 'svix-id': id, 'svix-timestamp': String(Math.floor(at.getTime() / 1000)), 'svix-signature': o.signature ?? new Webhook(WEBHOOK_SECRET).sign(id, at, payload) },
  };
}

const events = async (svixId?: string) =>
  Number((await (svixId ? t.database.sql`select count(*)::int as n from email_delivery_events where svix_id = ${svixId}` : t.database.sql`select count(*)::int as n from email_delivery_events`))[0]!['n']);

async function sentEmail() {
  const user = await createAccount(t);
  const templateId = await createTemplate(t, 'marketing');
  const id = await enqueue(t, { templateId, userId: user.id, to: user.email, category: 'marketing' });
  await t.app.emailQueueWorker.processBatch();
  const [row] = await t.database.sql`select provider_message_id from email_send_queue where id = ${id}`;
  return { id, templateId, providerId: row!['provider_message_id'] as string };
}

it.each([
  ['4 minutes 50 seconds old', -290, 200],
  ['5 minutes 10 seconds old', -310, 401],
  ['4 minutes 50 seconds ahead', 290, 200],
  ['5 minutes 10 seconds ahead', 310, 401],
  ['a day ahead', 86_400, 401],
])('a signature %s: %i', async (_name, offsetSeconds, status) => {
  const req = request(event('email.delivered', `none-${randomUUID()}`), { at: new Date(Date.now() + offsetSeconds * 1000) });
  const res = await t.app.inject(req);
  expect(res.statusCode).toBe(status);
  expect(await events(req.headers['svix-id'])).toBe(status === 200 ? 1 : 0);
});

it('refuses a valid signature moved to another svix-id or another timestamp', async () => {
  const before = await events();
  const original = request(event('email.opened', `none-${randomUUID()}`));
  const otherId = { ...original, headers: { ...original.headers, 'svix-id': `msg_${randomUUID()}` } };
  const otherTime = { ...original, headers: { ...original.headers, 'svix-timestamp': String(Number(original.headers['svix-timestamp']) - 1) } };
  for (const req of [otherId, otherTime]) {
    const res = await t.app.inject(req);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
  }
  expect(await events()).toBe(before);
});

it('applies a click once: the same svix-id re-signed over another body, concurrent duplicates and a replay on another replica change nothing', async () => {
  const sent = await sentEmail();
  const id = `msg_${randomUUID()}`;
  const click = request(event('email.clicked', sent.providerId), { id });
  // Five copies at once, as a provider retrying on a timeout might deliver them.
  const first = await Promise.all(Array.from({ length: 5 }, () => t.app.inject(click)));
  expect(first.every((r) => r.statusCode === 200)).toBe(true);
  // The same id again, on the other replica, and re-signed over a bounce (a captured id reused).
  expect((await replica.inject(click)).statusCode).toBe(200);
  expect((await t.app.inject(request(event('email.bounced', sent.providerId), { id }))).statusCode).toBe(200);
  expect(await events(id)).toBe(1);
  const [row] = await t.database.sql`select clicked_at, opened_at, status from email_send_queue where id = ${sent.id}`;
  expect(row!['clicked_at']).not.toBeNull();
  const [stats] = await t.database.sql`select total_clicked from email_templates where id = ${sent.templateId}`;
  expect(stats!['total_clicked']).toBe(1);
  // The bounce under the reused id did not suppress the address.
  const [to] = await t.database.sql`select lower(to_email) as email, suppressed_at from email_send_queue q left join user_email_preferences p on p.user_id = q.user_id where q.id = ${sent.id}`;
  expect(await t.database.sql`select 1 from email_suppressions where email = ${to!['email']}`).toHaveLength(0);
  expect(to!['suppressed_at']).toBeNull();
});
