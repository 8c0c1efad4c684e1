// The caller's emails and preferences: only the caller's rows are read or changed.
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';

let t: TestContext;
let me: Awaited<ReturnType<typeof sessionFor>>;
let other: Awaited<ReturnType<typeof sessionFor>>;
let templateId: string;
const ids: Record<string, string> = {};
beforeAll(async () => {
  t = await buildTestApp();
  me = await sessionFor(t, 'user', { verified: true });
  other = await sessionFor(t, 'user', { verified: true });
  const sql = t.database.sql;
  [{ id: templateId }] = (await sql`insert into email_templates (name, display_name, category, subject_template, html_template) values ('user_tpl', 'User tpl', 'reminder', 's', 'h') returning id`) as unknown as [{ id: string }];
  const add = async (key: string, userId: string, status: string, ago: string, opened = false) => {
    const [row] = await sql`insert into email_send_queue (template_id, user_id, to_email, subject, html_content, text_content, template_variables, status, created_at, sent_at, opened_at)
      values (${templateId}, ${userId}, ${userId === me.userId ? me.email : other.email}, ${key}, ${'<p>' + key + '</p>'}, ${key}, ${JSON.stringify({ k: key })}::jsonb, ${status}, now() - ${ago}::interval,
              ${status === 'sent' ? sql`now() - ${ago}::interval` : null}, ${opened ? sql`now() - interval '1 day'` : null}) returning id`;
    ids[key] = row!['id'] as string;
  };
  await add('old_sent', me.userId, 'sent', '3 hours', true);
  await add('mid_sent', me.userId, 'sent', '2 hours');
  await add('new_pending', me.userId, 'pending', '1 hour');
  await add('theirs', other.userId, 'sent', '1 hour');
});
afterAll(async () => t.close());

const base = '/api/user/emails';

it('lists only the caller’s emails, newest first, with the template summary', async () => {
  const res = await t.app.inject({ method: 'GET', url: `${base}/received`, headers: me.headers });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ success: true, total: 3, limit: 50, offset: 0, has_more: false });
  expect(body.emails.map((e: { subject: string }) => e.subject)).toEqual(['new_pending', 'mid_sent', 'old_sent']);
  expect(body.emails[1]).toEqual({
    id: ids['mid_sent'],
    subject: 'mid_sent',
    html_content: '<p>mid_sent</p>',
    text_content: 'mid_sent',
    template_variables: { k: 'mid_sent' },
    status: 'sent',
    created_at: expect.any(String),
    sent_at: expect.any(String),
    opened_at: null,
    clicked_at: null,
    email_templates: { id: templateId, name: 'user_tpl', display_name: 'User tpl', category: 'reminder' },
  });
  const unread = (await t.app.inject({ method: 'GET', url: `${base}/received?unread_only=true&limit=1`, headers: me.headers })).json();
  expect(unread).toMatchObject({ total: 2, limit: 1, has_more: true });
  expect(unread.emails.map((e: { subject: string }) => e.subject)).toEqual(['new_pending']);
  const inbox = (await t.app.inject({ method: 'GET', url: `${base}/inbox`, headers: me.headers })).json();
  expect(inbox.emails.map((e: { subject: string }) => e.subject)).toEqual(['mid_sent', 'old_sent']);
  expect((await t.app.inject({ method: 'GET', url: `${base}/received?limit=101`, headers: me.headers })).statusCode).toBe(400);
});

it('marks own emails opened, keeps existing stamps, and leaves other users’ emails alone', async () => {
  const [before] = await t.database.sql`select opened_at from email_send_queue where id = ${ids['old_sent']!}`;
  const res = await t.app.inject({
    method: 'POST',
    url: `${base}/received`,
    headers: me.headers,
    payload: { email_ids: [ids['old_sent'], ids['mid_sent'], ids['theirs']], action: 'mark_opened' },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ success: true, message: 'Marked 2 email(s) as opened' });
  const rows = await t.database.sql`select subject, opened_at, clicked_at from email_send_queue where id in ${t.database.sql([ids['old_sent']!, ids['mid_sent']!, ids['theirs']!])} order by subject`;
  const by = Object.fromEntries(rows.map((r) => [r['subject'], r]));
  expect(by['old_sent']!['opened_at']).toEqual(before!['opened_at']);
  expect(by['mid_sent']!['opened_at']).not.toBeNull();
  expect(by['mid_sent']!['clicked_at']).toBeNull();
  expect(by['theirs']!['opened_at']).toBeNull();

  const onlyTheirs = await t.app.inject({ method: 'POST', url: `${base}/received`, headers: me.headers, payload: { email_ids: [ids['theirs']], action: 'mark_clicked' } });
  expect(onlyTheirs.json()).toEqual({ success: true, message: 'Marked 0 email(s) as clicked' });
  expect((await t.database.sql`select opened_at, clicked_at from email_send_queue where id = ${ids['theirs']!}`)[0]).toEqual({ opened_at: null, clicked_at: null });

  const click = await t.app.inject({ method: 'POST', url: `${base}/received`, headers: me.headers, payload: { email_ids: [ids['new_pending']], action: 'mark_clicked' } });
  expect(click.json().message).toBe('Marked 1 email(s) as clicked');
  const [clicked] = await t.database.sql`select opened_at, clicked_at from email_send_queue where id = ${ids['new_pending']!}`;
  expect(clicked!['opened_at']).not.toBeNull();
  expect(clicked!['clicked_at']).not.toBeNull();
});

it('validates the mark body', async () => {
  const missing = await t.app.inject({ method: 'POST', url: `${base}/received`, headers: me.headers, payload: {} });
  expect(missing.statusCode).toBe(400);
  expect(missing.json().details.missing_fields).toContain('email_ids');
  // A missing enum is reported by zod as an invalid option, so libs/http lists it under invalid_fields only.
  expect(Object.keys(missing.json().details.invalid_fields).sort()).toEqual(['action', 'email_ids']);
  for (const payload of [{ email_ids: [], action: 'mark_opened' }, { email_ids: ['nope'], action: 'mark_opened' }, { email_ids: [ids['mid_sent']], action: 'delete' }]) {
    expect((await t.app.inject({ method: 'POST', url: `${base}/received`, headers: me.headers, payload })).statusCode).toBe(400);
  }
});

it('marks one own email read and answers 404 for others’, unknown and malformed ids', async () => {
  await t.database.sql`update email_send_queue set opened_at = null where id = ${ids['mid_sent']!}`;
  const ok = await t.app.inject({ method: 'POST', url: `${base}/${ids['mid_sent']}/read`, headers: me.headers });
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toEqual({ success: true, message: 'Email marked as read' });
  expect((await t.database.sql`select opened_at from email_send_queue where id = ${ids['mid_sent']!}`)[0]!['opened_at']).not.toBeNull();
  for (const id of [ids['theirs'], '00000000-0000-4000-8000-000000000000', 'nope']) {
    const res = await t.app.inject({ method: 'POST', url: `${base}/${id}/read`, headers: me.headers });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('EMAIL_NOT_FOUND');
  }
  expect((await t.database.sql`select opened_at from email_send_queue where id = ${ids['theirs']!}`)[0]!['opened_at']).toBeNull();
});

it('reads defaults, then upserts preferences and notification switches', async () => {
  const defaults = await t.app.inject({ method: 'GET', url: `${base}/preferences`, headers: me.headers });
  expect(defaults.statusCode).toBe(200);
  expect(defaults.json().preferences).toEqual({
    unsubscribed_categories: [],
    unsubscribed_all: false,
    email_enabled: true,
    marketing_emails: false,
    weekly_digest: true,
    story_updates: true,
    family_invitations: true,
    writing_reminders: false,
  });
  const update = await t.app.inject({ method: 'POST', url: `${base}/preferences`, headers: me.headers, payload: { unsubscribed_categories: ['marketing'], weekly_digest: false } });
  expect(update.statusCode).toBe(200);
  expect(update.json()).toMatchObject({ success: true, message: expect.any(String), preferences: { unsubscribed_categories: ['marketing'], unsubscribed_all: false, weekly_digest: false, email_enabled: true } });
  const second = await t.app.inject({ method: 'POST', url: `${base}/preferences`, headers: me.headers, payload: { unsubscribed_all: true, marketing_emails: true } });
  expect(second.json().preferences).toMatchObject({ unsubscribed_categories: ['marketing'], unsubscribed_all: true, weekly_digest: false, marketing_emails: true });
  expect(await t.database.sql`select unsubscribed_categories, unsubscribed_all from user_email_preferences where user_id = ${me.userId}`).toEqual([{ unsubscribed_categories: ['marketing'], unsubscribed_all: true }]);
  expect(await t.database.sql`select weekly_digest, marketing_emails from user_notification_settings where user_id = ${me.userId}`).toEqual([{ weekly_digest: false, marketing_emails: true }]);
  // The other user is untouched.
  expect((await t.app.inject({ method: 'GET', url: `${base}/preferences`, headers: other.headers })).json().preferences.unsubscribed_all).toBe(false);
});

it('rejects invalid preferences', async () => {
  for (const payload of [{ unsubscribed_categories: ['transactional'] }, { email_enabled: 'yes' }, { unknown_switch: true }]) {
    const res = await t.app.inject({ method: 'POST', url: `${base}/preferences`, headers: me.headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  }
});

it('requires a session (401)', async () => {
  for (const [method, url] of [['GET', `${base}/received`], ['POST', `${base}/received`], ['GET', `${base}/inbox`], ['POST', `${base}/x/read`], ['GET', `${base}/preferences`], ['POST', `${base}/preferences`]] as const) {
    const res = await t.app.inject({ method, url });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
  }
});
