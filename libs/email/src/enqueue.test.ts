import { createTestDatabase, type TestDatabase } from '@story/testing';
import { abArmFor } from './ab-split';
import { enqueueTemplate } from './enqueue';
import { MissingVariablesError } from './render';
import { createAccount, createTemplate } from './test/fixtures';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

const row = async (id: string) => (await t.sql`select *, extract(epoch from scheduled_for - created_at)::int as delay_s from email_send_queue where id = ${id}`)[0]!;

it('renders and stores a pending row for the account address, scheduled after the template delay', async () => {
  const u = await createAccount(t);
  await createTemplate(t, { name: 'hello_row', category: 'onboarding', subject: 'Hi {{user_name}} & co', html: '<p>{{user_name}}</p>', defaults: { user_name: 'there', x: 1 }, delayHours: 2 });
  const r = await enqueueTemplate(t.db, { template: { name: 'hello_row' }, userId: u.id, variables: { user_name: '<Ann>' } });
  expect(r).toEqual({ queued: true, queueId: expect.any(String) });
  const q = await row(r.queueId!);
  expect(q).toMatchObject({
    user_id: u.id,
    to_email: u.email,
    subject: 'Hi <Ann> & co',
    html_content: '<p>&lt;Ann&gt;</p>',
    text_content: 'Hello <Ann>',
    template_variables: { user_name: '<Ann>', x: 1 },
    category: 'onboarding',
    status: 'pending',
    ab_test_id: null,
    ab_variant: null,
    delay_s: 7200,
  });
  const immediate = await enqueueTemplate(t.db, { template: { name: 'hello_row' }, userId: u.id, toEmail: 'other@example.test', variables: {}, delayHours: 0 });
  expect(await row(immediate.queueId!)).toMatchObject({ to_email: 'other@example.test', delay_s: 0, html_content: '<p>there</p>' });
});

it('is idempotent on idempotencyKey', async () => {
  const u = await createAccount(t);
  await createTemplate(t, { name: 'idem', category: 'transactional' });
  const first = await enqueueTemplate(t.db, { template: { name: 'idem' }, userId: u.id, variables: {}, idempotencyKey: 'invite:1:1' });
  const second = await enqueueTemplate(t.db, { template: { name: 'idem' }, userId: u.id, variables: {}, idempotencyKey: 'invite:1:1' });
  expect(first.queued).toBe(true);
  expect(second).toEqual({ queued: false, queueId: first.queueId, reason: 'duplicate' });
  const [{ n }] = (await t.sql`select count(*)::int as n from email_send_queue where idempotency_key = 'invite:1:1'`) as unknown as [{ n: number }];
  expect(n).toBe(1);
});

it('enforces max_sends_per_user, not counting cancelled rows', async () => {
  const u = await createAccount(t);
  await createTemplate(t, { name: 'capped', maxSends: 2 });
  const a = await enqueueTemplate(t.db, { template: { name: 'capped' }, userId: u.id, variables: {} });
  await enqueueTemplate(t.db, { template: { name: 'capped' }, userId: u.id, variables: {} });
  expect(await enqueueTemplate(t.db, { template: { name: 'capped' }, userId: u.id, variables: {} })).toEqual({ queued: false, reason: 'max_sends_reached' });
  await t.sql`update email_send_queue set status = 'cancelled' where id = ${a.queueId!}`;
  expect((await enqueueTemplate(t.db, { template: { name: 'capped' }, userId: u.id, variables: {} })).queued).toBe(true);
  const other = await createAccount(t);
  expect((await enqueueTemplate(t.db, { template: { name: 'capped' }, userId: other.id, variables: {} })).queued).toBe(true);
});

it('refuses missing and inactive templates, unknown recipients and undeliverable users', async () => {
  const u = await createAccount(t, { notifications: { email_enabled: false } });
  const inactive = await createTemplate(t, { name: 'old_one', active: false });
  await createTemplate(t, { name: 'nudge', category: 'reminder' });
  expect(await enqueueTemplate(t.db, { template: { name: 'nope' }, userId: u.id, variables: {} })).toEqual({ queued: false, reason: 'template_not_found' });
  expect(await enqueueTemplate(t.db, { template: { id: 'not-a-uuid' }, userId: u.id, variables: {} })).toEqual({ queued: false, reason: 'template_not_found' });
  expect(await enqueueTemplate(t.db, { template: { id: inactive }, userId: u.id, variables: {} })).toEqual({ queued: false, reason: 'template_inactive' });
  expect(await enqueueTemplate(t.db, { template: { name: 'nudge' }, variables: {} })).toEqual({ queued: false, reason: 'no_recipient' });
  expect(await enqueueTemplate(t.db, { template: { name: 'nudge' }, userId: u.id, variables: {} })).toEqual({ queued: false, reason: 'email_disabled' });
});

it('throws MissingVariablesError and writes nothing', async () => {
  const u = await createAccount(t);
  await createTemplate(t, { name: 'needs_url', required: ['invitation_url'] });
  await expect(enqueueTemplate(t.db, { template: { name: 'needs_url' }, userId: u.id, variables: {} })).rejects.toBeInstanceOf(MissingVariablesError);
  const rows = await t.sql`select 1 from email_send_queue where user_id = ${u.id}`;
  expect(rows).toHaveLength(0);
});

it('routes users to the arm of a running A/B test and records it on the row', async () => {
  const base = await createTemplate(t, { name: 'ab_base', subject: 'Base subject' });
  const variant = await createTemplate(t, { name: 'ab_variant', subject: 'Variant subject' });
  const [test] = await t.sql`insert into email_ab_tests (name, base_template_id, variant_template_id, test_percentage, end_date)
    values ('AB', ${base}, ${variant}, 50, now() + interval '7 days') returning id`;
  const testId = test!['id'] as string;
  const seen = new Set<string>();
  for (let i = 0; i < 12; i++) {
    const u = await createAccount(t);
    const r = await enqueueTemplate(t.db, { template: { id: base }, userId: u.id, variables: {} });
    const q = await row(r.queueId!);
    const arm = abArmFor(testId, u.id, 50);
    seen.add(arm);
    expect(q).toMatchObject({ ab_test_id: testId, ab_variant: arm, template_id: arm === 'variant' ? variant : base, subject: arm === 'variant' ? 'Variant subject' : 'Base subject' });
  }
  expect(seen.size).toBe(2);
  // A test that has ended no longer routes.
  await t.sql`update email_ab_tests set start_date = now() - interval '2 days', end_date = now() - interval '1 day' where id = ${testId}`;
  const u = await createAccount(t);
  const r = await enqueueTemplate(t.db, { template: { id: base }, userId: u.id, variables: {} });
  expect(await row(r.queueId!)).toMatchObject({ ab_test_id: null, template_id: base });
});
