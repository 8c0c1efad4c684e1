import { createTestDatabase, type TestDatabase } from '@story/testing';
import { triggerEmailVerification, triggerEvent, triggerFamilyInvitation, triggerStoryReminder, triggerUserSignup } from './automation';
import { createAccount, createTemplate } from './test/fixtures';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

const queued = (userId: string) =>
  t.sql`select q.subject, q.to_email, t.name as template, extract(epoch from q.scheduled_for - q.created_at)::int as delay_s
        from email_send_queue q join email_templates t on t.id = q.template_id where q.user_id = ${userId} order by t.name`;

it('queues every active template listening for the event and applies delay_hours', async () => {
  await createTemplate(t, { name: 'evt_a', triggerEvents: ['story_created'] });
  await createTemplate(t, { name: 'evt_b', triggerEvents: ['story_created', 'other'], delayHours: 5 });
  await createTemplate(t, { name: 'evt_off', triggerEvents: ['story_created'], active: false });
  const u = await createAccount(t);
  expect(await triggerEvent(t.db, { event: 'story_created', user_id: u.id, template_variables: { user_name: 'Bo' } })).toEqual({ queued: 2, skipped: [] });
  expect(await queued(u.id)).toEqual([
    { subject: 'Hi Bo', to_email: u.email, template: 'evt_a', delay_s: 0 },
    { subject: 'Hi Bo', to_email: u.email, template: 'evt_b', delay_s: 5 * 3600 },
  ]);
  const v = await createAccount(t);
  await triggerEvent(t.db, { event: 'story_created', user_id: v.id, delay_hours: 1 });
  expect((await queued(v.id)).map((r) => r['delay_s'])).toEqual([3600, 3600]);
});

it('applies rules in priority order with their conditions and delay, without double-sending a template', async () => {
  const paidOnly = await createTemplate(t, { name: 'rule_paid', category: 'marketing' });
  const newbies = await createTemplate(t, { name: 'rule_new', triggerEvents: ['milestone'] });
  await t.sql`insert into email_automation_rules (name, event, template_id, conditions, delay_hours, priority) values
    ('paid', 'milestone', ${paidOnly}, ${JSON.stringify({ user_segment: 'paid' })}::jsonb, 0, 1),
    ('new', 'milestone', ${newbies}, ${JSON.stringify({ user_segment: 'new_users' })}::jsonb, 3, 10),
    ('weird', 'milestone', ${newbies}, ${JSON.stringify({ user_segment: 'martians' })}::jsonb, 0, 0)`;
  const fresh = await createAccount(t, { tier: 'free' });
  expect(await triggerEvent(t.db, { event: 'milestone', user_id: fresh.id })).toEqual({ queued: 1, skipped: [{ template: 'rule_paid', reason: 'not_in_segment:paid' }] });
  expect(await queued(fresh.id)).toEqual([expect.objectContaining({ template: 'rule_new', delay_s: 3 * 3600 })]);

  // Old paid account: the new_users rule refuses, and trigger_events does not send rule_new a second way.
  const veteran = await createAccount(t, { tier: 'family', createdDaysAgo: 60, notifications: { marketing_emails: true } });
  expect(await triggerEvent(t.db, { event: 'milestone', user_id: veteran.id })).toEqual({ queued: 1, skipped: [{ template: 'rule_new', reason: 'not_in_segment:new_users' }] });
  expect((await queued(veteran.id)).map((r) => r['template'])).toEqual(['rule_paid']);
});

it('evaluates caller segments: free, paid, inactive, unknown', async () => {
  await createTemplate(t, { name: 'seg_tpl', triggerEvents: ['seg_event'] });
  const idle = await createAccount(t, { createdDaysAgo: 90, lastSignInDaysAgo: 45 });
  const active = await createAccount(t, { createdDaysAgo: 90, lastSignInDaysAgo: 1 });
  expect(await triggerEvent(t.db, { event: 'seg_event', user_id: idle.id, conditions: { user_segment: 'inactive' } })).toMatchObject({ queued: 1 });
  expect(await triggerEvent(t.db, { event: 'seg_event', user_id: active.id, conditions: { user_segment: 'inactive' } })).toEqual({ queued: 0, skipped: [{ template: 'seg_tpl', reason: 'not_in_segment:inactive' }] });
  expect(await triggerEvent(t.db, { event: 'seg_event', user_id: active.id, conditions: { user_segment: 'free' } })).toMatchObject({ queued: 1 });
  expect(await triggerEvent(t.db, { event: 'seg_event', user_id: active.id, conditions: { user_segment: 'paid' } })).toMatchObject({ queued: 0 });
  expect(await triggerEvent(t.db, { event: 'seg_event', user_id: active.id, conditions: { user_segment: 'vip' } })).toEqual({ queued: 0, skipped: [{ template: 'seg_tpl', reason: 'unknown_segment:vip' }] });
  expect(await triggerEvent(t.db, { event: 'seg_event', user_id: active.id, conditions: { user_segment: 'all' } })).toMatchObject({ queued: 1 });
});

it('skips a template whose required variables are missing instead of failing the event', async () => {
  await createTemplate(t, { name: 'strict_tpl', triggerEvents: ['strict_event'], required: ['code'] });
  await createTemplate(t, { name: 'lenient_tpl', triggerEvents: ['strict_event'] });
  const u = await createAccount(t);
  expect(await triggerEvent(t.db, { event: 'strict_event', user_id: u.id })).toEqual({ queued: 1, skipped: [{ template: 'strict_tpl', reason: 'missing_variables:code' }] });
});

describe('seeded wrappers', () => {
  it('triggerUserSignup queues the seeded welcome email once', async () => {
    const u = await createAccount(t);
    expect(await triggerUserSignup(t.db, u.id, { user_name: 'Rosa', onboarding_url: 'https://app.example.test/start' })).toEqual({ queued: 1, skipped: [] });
    const [q] = await t.sql`select subject, html_content, text_content, category from email_send_queue where user_id = ${u.id}`;
    expect(q!['subject']).toContain('Welcome, Rosa');
    expect(q!['html_content']).toContain('href="https://app.example.test/start"');
    expect(q!['category']).toBe('onboarding');
    expect(await triggerUserSignup(t.db, u.id, { user_name: 'Rosa' })).toEqual({ queued: 0, skipped: [{ template: 'welcome', reason: 'max_sends_reached' }] });
  });

  it('triggerStoryReminder respects the story_updates switch', async () => {
    const on = await createAccount(t);
    const off = await createAccount(t, { notifications: { story_updates: false } });
    const data = { story_id: 's1', story_title: 'Summer of 1962', last_updated: new Date('2026-01-01T00:00:00Z'), app_url: 'https://app.example.test' };
    expect(await triggerStoryReminder(t.db, on.id, data)).toEqual({ queued: 1, skipped: [] });
    const [q] = await t.sql`select subject, html_content, template_variables from email_send_queue where user_id = ${on.id}`;
    expect(q!['subject']).toBe('"Summer of 1962" is waiting for you');
    expect(q!['html_content']).toContain('https://app.example.test/stories/s1');
    expect(q!['template_variables']).toMatchObject({ story_id: 's1', last_updated: '2026-01-01T00:00:00.000Z', user_name: 'there' });
    expect(await triggerStoryReminder(t.db, off.id, data)).toEqual({ queued: 0, skipped: [{ template: 'story_reminder', reason: 'kind_disabled:story_updates' }] });
  });

  it('triggerFamilyInvitation sends to the invitee address even when family invitations are switched off (transactional)', async () => {
    const inviter = await createAccount(t);
    const invitee = await createAccount(t, { notifications: { family_invitations: false, email_enabled: false } });
    const data = { family_id: 'f1', family_name: 'The Okafors', inviter_name: 'Ngozi <3', invitation_token: 'tok123', to_email: invitee.email, app_url: 'https://app.example.test', idempotency_key: 'invite:f1:1' };
    expect(await triggerFamilyInvitation(t.db, inviter.id, data)).toEqual({ queued: 1, skipped: [] });
    expect(await triggerFamilyInvitation(t.db, inviter.id, data)).toEqual({ queued: 0, skipped: [{ template: 'family_invitation', reason: 'duplicate' }] });
    const [q] = await t.sql`select user_id, to_email, subject, html_content from email_send_queue where to_email = ${invitee.email}`;
    expect(q).toMatchObject({ user_id: invitee.id, subject: 'Ngozi <3 invited you to join The Okafors on Family Stories' });
    expect(q!['html_content']).toContain('Ngozi &lt;3');
    expect(q!['html_content']).toContain('https://app.example.test/invite/tok123');
    // No URL at all: the required invitation_url is missing, reported as a skip.
    const { app_url: _drop, ...noUrl } = data;
    expect(await triggerFamilyInvitation(t.db, inviter.id, { ...noUrl, idempotency_key: 'invite:f1:2' })).toEqual({
      queued: 0,
      skipped: [{ template: 'family_invitation', reason: 'missing_variables:invitation_url' }],
    });
  });

  it('shows the inviter’s personal message in the invitation, escaped in HTML, and no empty frame without one', async () => {
    const inviter = await createAccount(t);
    const invitee = await createAccount(t);
    const message = 'Come share <b>Grandma</b>\'s stories & "recipes"\nSee you soon';
    const base = { family_id: 'f2', family_name: 'The Okafors', inviter_name: 'Ngozi', invitation_token: 'tok456', to_email: invitee.email, app_url: 'https://app.example.test' };
    await triggerFamilyInvitation(t.db, inviter.id, { ...base, message, idempotency_key: 'invite:f2:1' });
    const [withMessage] = await t.sql`select html_content, text_content from email_send_queue where to_email = ${invitee.email}`;
    const html = String(withMessage!['html_content']);
    expect(html).toContain('Come share &lt;b&gt;Grandma&lt;/b&gt;&#39;s stories &amp; &quot;recipes&quot;\nSee you soon</blockquote>');
    expect(html).not.toContain('<b>Grandma</b>');
    expect(html).not.toMatch(/\{\{[#/]?message\}\}/);
    expect(String(withMessage!['text_content'])).toContain(`Ngozi wrote:\n"${message}"\n\nAccept the invitation: https://app.example.test/invite/tok456`);

    const other = await createAccount(t);
    await triggerFamilyInvitation(t.db, inviter.id, { ...base, to_email: other.email, idempotency_key: 'invite:f2:2' });
    const [plain] = await t.sql`select html_content, text_content from email_send_queue where to_email = ${other.email}`;
    expect(String(plain!['html_content'])).not.toContain('<blockquote');
    expect(String(plain!['text_content'])).not.toContain('wrote:');
    expect(String(plain!['text_content'])).toContain('voices.\n\nAccept the invitation: https://app.example.test/invite/tok456');
  });
});

it('does not send the variant template of a running A/B test on its own', async () => {
  const base = await createTemplate(t, { name: 'ab_evt_base', triggerEvents: ['ab_event'] });
  const variant = await createTemplate(t, { name: 'ab_evt_variant', triggerEvents: ['ab_event'] });
  await t.sql`insert into email_ab_tests (name, base_template_id, variant_template_id, test_percentage) values ('AB evt', ${base}, ${variant}, 50)`;
  for (let i = 0; i < 4; i++) {
    const u = await createAccount(t);
    expect(await triggerEvent(t.db, { event: 'ab_event', user_id: u.id })).toEqual({ queued: 1, skipped: [] });
    const [q] = await t.sql`select ab_variant, template_id from email_send_queue where user_id = ${u.id}`;
    expect(q!['template_id']).toBe(q!['ab_variant'] === 'variant' ? variant : base);
  }
});

it('queues the seeded verify_email message with the link, even when every notification is switched off', async () => {
  const u = await createAccount(t, { notifications: { email_enabled: false } });
  const url = 'https://app.example.test/verify-email?token=abc';
  expect(await triggerEmailVerification(t.db, u.id, { verification_url: url, user_name: 'Ada', idempotency_key: `verify:${u.id}` })).toEqual({ queued: 1, skipped: [] });
  // The same key (one per token) queues nothing twice.
  expect((await triggerEmailVerification(t.db, u.id, { verification_url: url, idempotency_key: `verify:${u.id}` })).queued).toBe(0);
  const rows = await t.sql`select q.category, q.to_email, q.text_content, q.html_content, tp.name from email_send_queue q join email_templates tp on tp.id = q.template_id where q.user_id = ${u.id}`;
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ category: 'transactional', to_email: u.email, name: 'verify_email' });
  expect(rows[0]!['text_content']).toContain(url);
  expect(rows[0]!['html_content']).toContain(`href="${url}"`);
  expect(rows[0]!['text_content']).toContain('Hi Ada');
});
