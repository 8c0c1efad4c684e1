import { createTestDatabase, type TestDatabase } from '@story/testing';
import { checkDeliverable, checkDeliverableMany, suppressAddress, type DeliverabilityQuery } from './preferences';
import { createAccount } from './test/fixtures';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

describe('checkDeliverable', () => {
  it('allows everything but marketing for a user with default settings and no rows', async () => {
    const u = await createAccount(t);
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'onboarding', kind: 'story_updates' })).toEqual({ allowed: true });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'marketing' })).toEqual({ allowed: false, reason: 'marketing_opt_out' });
  });

  it('honours the master switch for optional mail but not for transactional or system mail', async () => {
    const u = await createAccount(t, { notifications: { email_enabled: false, marketing_emails: true } });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'reminder' })).toEqual({ allowed: false, reason: 'email_disabled' });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'marketing' })).toEqual({ allowed: false, reason: 'email_disabled' });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'transactional' })).toEqual({ allowed: true });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'system' })).toEqual({ allowed: true });
  });

  it('refuses an unsubscribed category and everything optional after unsubscribe-all', async () => {
    const u = await createAccount(t);
    await t.sql`insert into user_email_preferences (user_id, unsubscribed_categories) values (${u.id}, '{reminder}')`;
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'reminder' })).toEqual({ allowed: false, reason: 'unsubscribed:reminder' });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'onboarding' })).toEqual({ allowed: true });
    await t.sql`update user_email_preferences set unsubscribed_all = true where user_id = ${u.id}`;
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'onboarding' })).toEqual({ allowed: false, reason: 'unsubscribed_all' });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'transactional' })).toEqual({ allowed: true });
  });

  it('needs the marketing opt-in and respects the per-kind switches', async () => {
    const u = await createAccount(t, { notifications: { marketing_emails: true, story_updates: false } });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'marketing' })).toEqual({ allowed: true });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'reminder', kind: 'story_updates' })).toEqual({ allowed: false, reason: 'kind_disabled:story_updates' });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'reminder', kind: 'weekly_digest' })).toEqual({ allowed: true });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'transactional', kind: 'story_updates' })).toEqual({ allowed: true });
  });

  it('finds the account by address when no userId is given', async () => {
    const u = await createAccount(t, { notifications: { email_enabled: false } });
    expect(await checkDeliverable(t.db, { email: u.email.toUpperCase(), category: 'reminder' })).toEqual({ allowed: false, reason: 'email_disabled' });
    expect(await checkDeliverable(t.db, { email: 'nobody@example.test', category: 'reminder' })).toEqual({ allowed: true });
  });
});

describe('checkDeliverableMany', () => {
  it('decides a batch in one call exactly as checkDeliverable decides each, in order', async () => {
    const plain = await createAccount(t);
    const off = await createAccount(t, { notifications: { email_enabled: false } });
    const quoted = await createAccount(t);
    await t.sql`insert into user_email_preferences (user_id, unsubscribed_categories) values (${quoted.id}, '{reminder}')`;
    await suppressAddress(t.db, { email: 'Gone"Quote\\@Example.test', reason: 'hard_bounce' });
    const queries: DeliverabilityQuery[] = [
      { userId: off.id, email: off.email, category: 'reminder' },
      { userId: plain.id, email: plain.email, category: 'marketing' },
      { email: quoted.email.toUpperCase(), category: 'reminder' },
      { userId: null, email: 'gone"quote\\@example.test', category: 'transactional' },
      { email: 'nobody@example.test', category: 'onboarding' },
      { userId: plain.id, email: plain.email, category: 'transactional' },
    ];
    const many = await checkDeliverableMany(t.db, queries);
    expect(many).toEqual(await Promise.all(queries.map((q) => checkDeliverable(t.db, q))));
    expect(many.map((d) => (d.allowed ? 'ok' : d.reason))).toEqual(['email_disabled', 'marketing_opt_out', 'unsubscribed:reminder', 'suppressed:hard_bounce', 'ok', 'ok']);
    expect(await checkDeliverableMany(t.db, [])).toEqual([]);
  });
});

describe('suppressAddress', () => {
  it('blocks even transactional mail, by address and on the owning account', async () => {
    const u = await createAccount(t);
    await suppressAddress(t.db, { email: u.email.toUpperCase(), reason: 'hard_bounce' });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'transactional' })).toEqual({ allowed: false, reason: 'suppressed:hard_bounce' });
    const [prefs] = await t.sql`select suppressed_at is not null as suppressed, suppression_reason from user_email_preferences where user_id = ${u.id}`;
    expect(prefs).toEqual({ suppressed: true, suppression_reason: 'hard_bounce' });
    // Upserts: a complaint later updates the reason, no duplicate key error.
    await suppressAddress(t.db, { email: u.email, userId: u.id, reason: 'complaint' });
    const rows = await t.sql`select email, reason from email_suppressions where email = ${u.email.toLowerCase()}`;
    expect(rows).toEqual([{ email: u.email.toLowerCase(), reason: 'complaint' }]);
  });

  it('blocks a user whose preferences row is suppressed even if the address row is gone', async () => {
    const u = await createAccount(t);
    await t.sql`insert into user_email_preferences (user_id, suppressed_at, suppression_reason) values (${u.id}, now(), 'complaint')`;
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'system' })).toEqual({ allowed: false, reason: 'suppressed:complaint' });
  });

  it('suppresses addresses without an account', async () => {
    await suppressAddress(t.db, { email: 'invitee@example.test', reason: 'manual' });
    expect(await checkDeliverable(t.db, { userId: null, email: 'invitee@example.test', category: 'transactional' })).toEqual({ allowed: false, reason: 'suppressed:manual' });
  });
});
