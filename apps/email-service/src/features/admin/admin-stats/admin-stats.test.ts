// Spec 001 Admin application reference: every dashboard metric (CONTRACTS §7 names) computed from real rows,
// the recent-activity feed, and the four routes agreeing with each other.
import { buildTestApp, type TestContext } from '../../../test/helper';
import { accountWithSession, type TestAccount } from '../test/admin.test-helper';

let t: TestContext;
let support: TestAccount;
let a: TestAccount;
let b: TestAccount;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  const sql = t.database.sql;
  support = await accountWithSession(t, { role: 'support' }); // session opened now: active
  a = await accountWithSession(t, { tier: 'family' });
  b = await accountWithSession(t, { tier: 'premium' });
  // Old account: created 40 days ago, last seen 20 days ago (active30d, not active7d), cancelled starter.
  const [old] = await sql`insert into accounts (email, created_at, last_sign_in_at) values ('old@example.test', now() - interval '40 days', now() - interval '20 days') returning id`;
  await sql`insert into profiles (id, subscription_tier, subscription_status) values (${old!['id']}, 'starter', 'cancelled')`;
  // Dormant account with a stale session: counted in total only.
  const [dormant] = await sql`insert into accounts (email, created_at) values ('dormant@example.test', now() - interval '90 days') returning id`;
  await sql`insert into profiles (id, subscription_tier) values (${dormant!['id']}, 'starter')`;
  await sql`insert into auth_sessions (user_id, created_at, expires_at) values (${dormant!['id']}, now() - interval '60 days', now() - interval '30 days')`;
  // All fresh sessions of accountWithSession count; move a's and b's sessions back 10 days so they are 30d-only.
  await sql`update auth_sessions set created_at = now() - interval '10 days' where user_id in (${a.userId}, ${b.userId})`;
  await sql`update accounts set created_at = now() - interval '2 days' where id = ${b.userId}`;

  const [c1] = await sql`insert into campaigns (user_id, title, storyteller_name, relationship, status, prompts_sent) values (${a.userId}, 'Mum', 'Mum', 'parent', 'active', 3) returning id`;
  await sql`insert into campaigns (user_id, title, storyteller_name, relationship, status, prompts_sent) values (${a.userId}, 'Dad', 'Dad', 'parent', 'completed', 1)`;
  await sql`insert into stories (user_id, campaign_id, title, word_count) values (${a.userId}, ${c1!['id']}, 'Answer one', 100), (${a.userId}, ${c1!['id']}, 'Answer two', 50), (${b.userId}, null, 'Own story', 7)`;
  const [conv] = await sql`insert into conversations (user_id, title) values (${a.userId}, 'Childhood') returning id`;
  await sql`insert into conversation_messages (conversation_id, role, content) values (${conv!['id']}, 'assistant', 'Where did you grow up?'), (${conv!['id']}, 'user', 'By the sea.')`;
  const [g] = await sql`insert into family_groups (created_by, name) values (${a.userId}, 'The As') returning id`;
  await sql`insert into family_members (family_group_id, user_id, display_name, status) values (${g!['id']}, ${a.userId}, null, 'active'), (${g!['id']}, ${b.userId}, null, 'active'), (${g!['id']}, null, 'Gone', 'removed')`;
  await sql`insert into family_invitations (family_group_id, email, role, token_hash, expires_at) values (${g!['id']}, 'x@example.test', 'family_viewer', 'h1', now() + interval '1 day')`;
  await sql`insert into books (user_id, title, status) values (${a.userId}, 'Draft', 'draft'), (${a.userId}, 'Going', 'in_progress'), (${b.userId}, 'Done', 'published')`;
  await sql`insert into images (user_id, storage_key, mime_type) values (${a.userId}, 'k1', 'image/png')`;
  await sql`insert into recordings (user_id, media_type, storage_key) values (${a.userId}, 'audio', 'r1'), (${a.userId}, 'audio', 'r2'), (${a.userId}, 'video', 'r3')`;
  await sql`insert into recordings (user_id, media_type, status) values (${a.userId}, 'audio', 'upload_failed')`;
  await sql`insert into invoices (user_id, number, amount_cents, status, paid_at) values
    (${a.userId}, 'INV-1', 1999, 'paid', now() - interval '3 days'),
    (${b.userId}, 'INV-2', 4999, 'paid', now() - interval '40 days'),
    (${b.userId}, 'INV-3', 999, 'open', null)`;
  await sql`insert into waitlist (email, verified, free_eligible, converted_at) values
    ('w1@example.test', true, true, now()), ('w2@example.test', true, false, null), ('w3@example.test', false, true, null), ('w4@example.test', false, false, null)`;
});
afterAll(async () => t.close());

const get = async (url: string) => {
  const res = await t.app.inject({ url, headers: support.headers });
  expect(res.statusCode).toBe(200);
  return res.json();
};

it('counts users: total, active in 7 and 30 days, new today', async () => {
  expect(await get('/api/admin/stats/users')).toEqual({ success: true, users: { total: 5, active7d: 1, active30d: 4, newToday: 2 } });
});

it('counts content, engagement and publishing from their rows', async () => {
  expect(await get('/api/admin/stats/content')).toEqual({
    success: true,
    content: { campaigns: 2, activeCampaigns: 1, stories: 3, wordCount: 157 },
    // Two campaign answers for four prompts sent.
    engagement: { conversations: 1, responseRate: 0.5, familyMembers: 2, invitations: 1 },
    publishing: { books: 3, booksInProgress: 1, images: 1, audioRecordings: 2 },
  });
});

it('sums revenue of the last 30 days and counts tiers and the waitlist', async () => {
  expect(await get('/api/admin/stats/platform')).toEqual({
    success: true,
    business: { monthlyRevenue: 19.99, monthlyRevenueCents: 1999, tiers: { free: 2, starter: 1, family: 1, premium: 1 } },
    waitlist: { signups: 4, verified: 2, conversionRate: 0.25, freeEligible: 2 },
  });
});

it('puts everything in /api/overview-stats with the recent-activity feed, newest first', async () => {
  const all = await get('/api/overview-stats');
  const parts = { ...(await get('/api/admin/stats/users')), ...(await get('/api/admin/stats/content')), ...(await get('/api/admin/stats/platform')) };
  for (const key of ['users', 'content', 'engagement', 'publishing', 'business', 'waitlist']) expect(all[key]).toEqual(parts[key]);
  const feed = all.recentActivity as { type: string; at: string; userId: string; title: string | null }[];
  const types = new Set(feed.map((e) => e.type));
  expect([...types].sort()).toEqual(['book_published', 'campaign_created', 'conversation_response', 'signup', 'story_created']);
  expect(feed.find((e) => e.type === 'book_published')).toMatchObject({ userId: b.userId, title: 'Done' });
  expect(feed.find((e) => e.type === 'conversation_response')).toMatchObject({ userId: a.userId, title: 'Childhood' });
  expect(feed.filter((e) => e.type === 'story_created')).toHaveLength(3);
  const times = feed.map((e) => Date.parse(e.at));
  expect([...times].sort((x, y) => y - x)).toEqual(times);
  expect(feed.length).toBeLessThanOrEqual(20);
});
