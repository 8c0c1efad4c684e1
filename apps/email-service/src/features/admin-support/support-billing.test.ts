// Support insight and billing against real rows: recent flags, daily trends, summaries; per-tier counts
// and monthly revenue at the spec 000 prices; permissions (support reads, a plain user 403, no token 401).
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';

let t: TestContext;
let support: Awaited<ReturnType<typeof sessionFor>>;
let user: Awaited<ReturnType<typeof sessionFor>>;
beforeAll(async () => {
  t = await buildTestApp();
  [support, user] = [await sessionFor(t, 'support'), await sessionFor(t, 'user')];
});
afterAll(async () => t.close());

const get = (url: string, headers = support.headers) => t.app.inject({ method: 'GET', url, headers });

it('support flags: recent (newest first, with reporter), trends per day, summaries', async () => {
  const c1 = '11111111-1111-4111-8111-111111111111';
  const c2 = '22222222-2222-4222-8222-222222222222';
  await t.database.sql`insert into support_flags (user_id, content_type, content_id, reason, status, created_at, resolved_at) values
    (${user.userId}, 'story', ${c1}, 'spam', 'open', now() - interval '3 hours', null),
    (${user.userId}, 'story', ${c1}, 'abuse', 'reviewing', now() - interval '2 hours', null),
    (null, 'recording', ${c2}, 'spam', 'resolved', now() - interval '2 days 1 hour', now() - interval '2 days'),
    (null, 'conversation', ${c2}, 'privacy', 'dismissed', now() - interval '40 days', now() - interval '39 days')`;

  const recent = await get('/api/admin/user-support/recent-flags?limit=3');
  expect(recent.statusCode).toBe(200);
  expect(recent.json().flags.map((f: { reason: string }) => f.reason)).toEqual(['abuse', 'spam', 'spam']);
  expect(recent.json().flags[0].reporter_email).toBe(user.email);
  expect((await get('/api/admin/user-support/recent-flags?status=resolved')).json().flags).toHaveLength(1);
  expect((await get('/api/admin/user-support/recent-flags?status=closed')).statusCode).toBe(400);

  const trends = (await get('/api/admin/user-support/trends?days=7')).json();
  expect(trends.daily).toHaveLength(7);
  expect(trends.daily.reduce((n: number, d: { opened: number }) => n + d.opened, 0)).toBe(3);
  expect(trends.daily.reduce((n: number, d: { resolved: number }) => n + d.resolved, 0)).toBe(1);
  expect(trends.by_reason).toEqual([{ reason: 'spam', count: 2 }, { reason: 'abuse', count: 1 }]);

  const summary = (await get('/api/admin/user-support/summaries')).json();
  expect(summary.by_status).toEqual({ open: 1, reviewing: 1, resolved: 1, dismissed: 1 });
  expect(summary.total).toBe(4);
  expect(summary.oldest_open_hours).toBeCloseTo(3, 0);
  expect(summary.avg_resolution_hours).toBeCloseTo(12.5, 0); // (1 h + 24 h) / 2
  expect(summary.most_reported[0]).toMatchObject({ content_type: 'story', content_id: c1, reports: 2, open_reports: 2 });

  expect((await get('/api/admin/user-support/summaries', user.headers)).statusCode).toBe(403);
  expect((await t.app.inject({ method: 'GET', url: '/api/admin/user-support/trends' })).statusCode).toBe(401);
});

it('billing: accounts and paying subscriptions per tier, monthly revenue in exact cents, paid invoices per month', async () => {
  const tiers: [string, string | null][] = [['starter', 'active'], ['starter', 'active'], ['starter', 'active'], ['starter', 'trial'], ['family', 'active'], ['family', 'cancelled'], ['premium', 'active'], ['free', null]];
  for (const [i, [tier, status]] of tiers.entries()) {
    const [a] = await t.database.sql`insert into accounts (email, role) values (${`billing${i}@example.test`}, 'user') returning id`;
    await t.database.sql`insert into profiles (id, subscription_tier, subscription_status) values (${a!['id']}, ${tier}, ${status})`;
  }
  await t.database.sql`insert into invoices (user_id, number, amount_cents, status, paid_at) values (${user.userId}, 'INV-1', 999, 'paid', now()), (${user.userId}, 'INV-2', 1999, 'open', null)`;
  const res = await get('/api/admin/billing');
  expect(res.statusCode).toBe(200);
  const body = res.json();
  const profiles = Number((await t.database.sql`select count(*)::int as n from profiles`)[0]!['n']);
  expect(body.tiers.starter).toBe(4);
  expect(body.tiers.free).toBe(profiles - 7);
  expect(body.paying).toEqual({ free: 0, starter: 3, family: 1, premium: 1 });
  expect(body.monthlyRevenue).toBe(49.96); // 3 x 9.99 + 19.99
  expect(body.unpriced).toEqual({ premium: 1 });
  expect(body.invoicedByMonth).toEqual([{ month: new Date().toISOString().slice(0, 7), paid: 9.99, invoices: 1 }]);
  expect((await get('/api/admin/billing', user.headers)).statusCode).toBe(403);
});
