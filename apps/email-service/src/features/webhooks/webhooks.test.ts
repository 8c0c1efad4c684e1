// POST /api/webhooks/email/resend: Svix signatures over the raw body, one application per svix-id, and the
// effect of each event type on the queue row, the counters and the suppression list.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'svix';
import { buildPipelineApp, createAccount, createTemplate, enqueue, WEBHOOK_SECRET, type PipelineContext } from '../../workers/test/pipeline-harness';

let t: PipelineContext;
beforeAll(async () => {
  t = await buildPipelineApp();
});
afterAll(async () => t.close());

const URL = '/api/webhooks/email/resend';

function signed(body: unknown, options: { secret?: string; msgId?: string; at?: Date } = {}) {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const msgId = options.msgId ?? `msg_${randomUUID()}`;
  const at = options.at ?? new Date();
  const signature = new Webhook(options.secret ?? WEBHOOK_SECRET).sign(msgId, at, payload);
  return {
    method: 'POST' as const,
    url: URL,
    payload,
    headers: { 'content-type': 'application/json', 'svix-id': msgId, 'svix-timestamp': String(Math.floor(at.getTime() / 1000)), 'svix-signature': signature },
  };
}

const event = (type: string, emailId: string, to = 'someone@example.test') => ({ type, created_at: new Date().toISOString(), data: { email_id: emailId, to, subject: 'Hi' } });

async function sentRow(category = 'marketing') {
  const user = await createAccount(t);
  const templateId = await createTemplate(t, category);
  const id = await enqueue(t, { templateId, userId: user.id, to: user.email, category });
  await t.app.emailQueueWorker.processBatch();
  const [row] = await t.database.sql`select provider_message_id, message_id_header from email_send_queue where id = ${id}`;
  return { id, user, templateId, providerId: row!['provider_message_id'] as string, messageIdHeader: row!['message_id_header'] as string };
}

const queueRow = async (id: string) => (await t.database.sql`select * from email_send_queue where id = ${id}`)[0]!;
const analytics = async (templateId: string) => (await t.database.sql`select * from email_analytics where template_id = ${templateId}`)[0]!;
const template = async (templateId: string) => (await t.database.sql`select * from email_templates where id = ${templateId}`)[0]!;
const eventCount = async () => Number((await t.database.sql`select count(*)::int as n from email_delivery_events`)[0]!['n']);

it('applies a verified open and counts it once; a replayed svix-id changes nothing', async () => {
  const s = await sentRow();
  const request = signed(event('email.opened', s.providerId));
  const res = await t.app.inject(request);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ success: true, message: 'Processed email.opened' });
  const row = await queueRow(s.id);
  expect(row['opened_at']).not.toBeNull();
  expect(row['last_event_at']).not.toBeNull();
  expect((await analytics(s.templateId))['opened']).toBe(1);
  expect((await template(s.templateId))['total_opened']).toBe(1);
  const [ev] = await t.database.sql`select matched, queue_id from email_delivery_events where svix_id = ${request.headers['svix-id']}`;
  expect(ev).toMatchObject({ matched: true, queue_id: s.id });

  const replay = await t.app.inject(request);
  expect(replay.statusCode).toBe(200);
  expect(replay.json()).toEqual({ success: true, message: 'Already processed' });
  // A second, distinct open of the same email is recorded but not counted again.
  await t.app.inject(signed(event('email.opened', s.providerId)));
  expect((await analytics(s.templateId))['opened']).toBe(1);
  expect((await template(s.templateId))['total_opened']).toBe(1);
});

it('a click stamps clicked and opened, counts both once; delivered is found by Message-ID too', async () => {
  const s = await sentRow();
  await t.app.inject(signed(event('email.clicked', s.providerId)));
  await t.app.inject(signed(event('email.clicked', s.providerId)));
  const row = await queueRow(s.id);
  expect(row['clicked_at']).not.toBeNull();
  expect(row['opened_at']).not.toBeNull();
  const a = await analytics(s.templateId);
  expect(a).toMatchObject({ opened: 1, clicked: 1, sent: 1 });
  expect(await template(s.templateId)).toMatchObject({ total_opened: 1, total_clicked: 1, total_sent: 1 });

  const res = await t.app.inject(signed(event('email.delivered', s.messageIdHeader.replace(/[<>]/g, ''))));
  expect(res.statusCode).toBe(200);
  expect((await queueRow(s.id))['delivered_at']).not.toBeNull();
  expect((await analytics(s.templateId))['delivered']).toBe(1);
});

it('a bounce suppresses the address and the next email to it is not sent', async () => {
  const s = await sentRow('transactional');
  const res = await t.app.inject(signed(event('email.bounced', s.providerId, s.user.email)));
  expect(res.statusCode).toBe(200);
  expect((await queueRow(s.id))['bounced_at']).not.toBeNull();
  const [sup] = await t.database.sql`select reason from email_suppressions where email = ${s.user.email.toLowerCase()}`;
  expect(sup!['reason']).toBe('hard_bounce');
  const next = await enqueue(t, { userId: s.user.id, to: s.user.email, category: 'transactional' });
  await t.app.emailQueueWorker.processBatch();
  expect((await queueRow(next))['status']).toBe('cancelled');
});

it('a complaint suppresses the address as a complaint', async () => {
  const s = await sentRow();
  await t.app.inject(signed(event('email.complained', s.providerId)));
  expect((await queueRow(s.id))['complained_at']).not.toBeNull();
  const [sup] = await t.database.sql`select reason from email_suppressions where email = ${s.user.email.toLowerCase()}`;
  expect(sup!['reason']).toBe('complaint');
});

it('keeps an event for an unknown email id with matched=false and answers 200', async () => {
  const request = signed(event('email.delivered', 'no-such-email'));
  const res = await t.app.inject(request);
  expect(res.statusCode).toBe(200);
  expect(res.json().success).toBe(true);
  const [ev] = await t.database.sql`select matched, queue_id from email_delivery_events where svix_id = ${request.headers['svix-id']}`;
  expect(ev).toMatchObject({ matched: false, queue_id: null });
});

it('refuses bad, missing and stale signatures with 401 and records nothing', async () => {
  const s = await sentRow();
  const before = await eventCount();
  const body = event('email.opened', s.providerId);
  const wrongSecret = signed(body, { secret: `whsec_${Buffer.from('another-secret-another-secret!!').toString('base64')}` });
  const tampered = signed(body);
  tampered.payload = tampered.payload.replace('email.opened', 'email.clicked');
  const stale = signed(body, { at: new Date(Date.now() - 10 * 60 * 1000) });
  const missing = { ...signed(body), headers: { 'content-type': 'application/json' } };
  for (const request of [wrongSecret, tampered, stale, missing]) {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
  }
  expect(await eventCount()).toBe(before);
  expect((await queueRow(s.id))['opened_at']).toBeNull();
});

it('answers 400 to a signed body that is not JSON or not an event', async () => {
  expect((await t.app.inject(signed('not json'))).statusCode).toBe(400);
  const res = await t.app.inject(signed({ type: 'email.opened', data: {} }));
  expect(res.statusCode).toBe(400);
  expect(res.json().code).toBe('VALIDATION_ERROR');
});

it('refuses a signed event whose email_id or svix-id is over its bound with 400 naming it, not a 500 from the unique index', async () => {
  const before = await eventCount();
  const long = await t.app.inject(signed(event('email.opened', 'e'.repeat(500_000))));
  expect(long.statusCode).toBe(400);
  expect(long.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { invalid_fields: ['data.email_id'] } });
  const longId = await t.app.inject(signed(event('email.opened', 'x'), { msgId: `msg_${'m'.repeat(5000)}` }));
  expect(longId.statusCode).toBe(400);
  expect(longId.json().error).toMatch(/svix-id/);
  expect(await eventCount()).toBe(before);
});

it('answers 401 when no EMAIL_WEBHOOK_SECRET is configured', async () => {
  const other = await buildPipelineApp({ EMAIL_WEBHOOK_SECRET: undefined });
  try {
    const res = await other.app.inject(signed(event('email.opened', 'x')));
    expect(res.statusCode).toBe(401);
    expect(Number((await other.database.sql`select count(*)::int as n from email_delivery_events`)[0]!['n'])).toBe(0);
  } finally {
    await other.close();
  }
});
