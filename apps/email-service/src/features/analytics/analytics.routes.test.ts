// Admin analytics on a small known data set of queue rows.
import { rate } from './analytics.service';
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';

let t: TestContext;
let admin: Awaited<ReturnType<typeof sessionFor>>;
let a: string;
let b: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await sessionFor(t, 'admin');
  const sql = t.database.sql;
  [{ id: a }] = (await sql`insert into email_templates (name, display_name, category, subject_template, html_template) values ('tpl_a', 'A', 'onboarding', 's', 'h') returning id`) as unknown as [{ id: string }];
  [{ id: b }] = (await sql`insert into email_templates (name, display_name, category, subject_template, html_template) values ('tpl_b', 'B', 'marketing', 's', 'h') returning id`) as unknown as [{ id: string }];
  await sql`insert into email_templates (name, category, subject_template, html_template) values ('tpl_c', 'marketing', 's', 'h')`;
  const row = (template: string, status: string, ago: string, stamps: { delivered?: boolean; opened?: boolean; clicked?: boolean } = {}, scheduledAgo = '0 seconds') => sql`
    insert into email_send_queue (template_id, to_email, subject, html_content, status, created_at, scheduled_for, delivered_at, opened_at, clicked_at)
    values (${template}, 'x@example.test', ${'subject ' + status}, 'h', ${status}, now() - ${ago}::interval, now() - ${scheduledAgo}::interval,
            ${stamps.delivered ? sql`now()` : null}, ${stamps.opened ? sql`now()` : null}, ${stamps.clicked ? sql`now()` : null})`;
  // Template A today: 4 sent (4 delivered, 2 opened, 1 clicked) and 1 failed; one old send outside the period.
  await row(a, 'sent', '1 second', { delivered: true, opened: true, clicked: true });
  await row(a, 'sent', '1 second', { delivered: true, opened: true });
  await row(a, 'sent', '1 second', { delivered: true });
  await row(a, 'sent', '1 second', { delivered: true });
  await row(a, 'failed', '1 second');
  await row(a, 'sent', '40 days', { delivered: true, opened: true });
  // Template B two days ago: 2 sent, 1 delivered; plus a stuck pending row and a processing row.
  await row(b, 'sent', '2 days', { delivered: true });
  await row(b, 'sent', '2 days');
  await row(b, 'pending', '3 hours', {}, '2 hours');
  await row(b, 'processing', '1 second');
});
afterAll(async () => t.close());

const get = (query: string) => t.app.inject({ method: 'GET', url: `/api/admin/email/analytics${query}`, headers: admin.headers });

it('computes every figure from the queue rows of the period', async () => {
  const res = await get('?period=7');
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ success: true, period: 7 });
  expect(body.overall_stats).toEqual({
    total_sent: 6,
    total_delivered: 5,
    total_opened: 2,
    total_clicked: 1,
    total_failed: 1,
    delivery_rate: '83.33',
    open_rate: '33.33',
    click_rate: '16.67',
    failure_rate: '14.29',
  });
  // The migration seeds templates of its own: they are listed too, with zeros, after the used ones.
  expect(body.template_performance.slice(0, 2)).toEqual([
    { id: a, name: 'tpl_a', display_name: 'A', category: 'onboarding', total_sent: 4, total_delivered: 4, total_opened: 2, total_clicked: 1, delivery_rate: '100.00', open_rate: '50.00', click_rate: '25.00' },
    { id: b, name: 'tpl_b', display_name: 'B', category: 'marketing', total_sent: 2, total_delivered: 1, total_opened: 0, total_clicked: 0, delivery_rate: '50.00', open_rate: '0.00', click_rate: '0.00' },
  ]);
  expect(body.template_performance.find((x: { name: string }) => x.name === 'tpl_c')).toEqual(
    { id: expect.any(String), name: 'tpl_c', display_name: null, category: 'marketing', total_sent: 0, total_delivered: 0, total_opened: 0, total_clicked: 0, delivery_rate: '0.00', open_rate: '0.00', click_rate: '0.00' },
  );
  expect(body.daily_trends).toHaveLength(7);
  const today = new Date().toISOString().slice(0, 10);
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  expect(body.daily_trends[6]).toEqual({ date: today, sent: 4, delivered: 4, opened: 2, clicked: 1 });
  expect(body.daily_trends[4]).toEqual({ date: twoDaysAgo, sent: 2, delivered: 1, opened: 0, clicked: 0 });
  expect(body.daily_trends[5]).toMatchObject({ sent: 0, delivered: 0, opened: 0, clicked: 0 });
  const templateCount = Object.fromEntries(
    (await t.database.sql`select category, count(*)::int as n from email_templates group by category`).map((r) => [r['category'], r['n']]),
  );
  const category = (name: string) => body.category_breakdown.find((x: { category: string }) => x.category === name);
  expect(category('marketing')).toEqual({ category: 'marketing', total_sent: 2, total_delivered: 1, total_opened: 0, total_clicked: 0, template_count: templateCount['marketing'], delivery_rate: '50.00', open_rate: '0.00', click_rate: '0.00' });
  expect(category('onboarding')).toEqual({ category: 'onboarding', total_sent: 4, total_delivered: 4, total_opened: 2, total_clicked: 1, template_count: templateCount['onboarding'], delivery_rate: '100.00', open_rate: '50.00', click_rate: '25.00' });
  expect(templateCount['marketing']).toBeGreaterThanOrEqual(2);
  expect(body.recent_activity).toHaveLength(9);
  expect(body.recent_activity[0]).toEqual({ id: expect.any(String), subject: expect.any(String), to_email: 'x@example.test', status: expect.any(String), created_at: expect.any(String), email_templates: expect.objectContaining({ category: expect.any(String) }) });
  expect(body.queue_status).toEqual({ pending: 1, processing: 1 });
  expect(body.alerts).toEqual({ stuck: 1, backlog: false });
});

it('filters by template and category, and the default period is 30 days', async () => {
  const byTemplate = (await get(`?template_id=${a}`)).json();
  expect(byTemplate.period).toBe(30);
  expect(byTemplate.daily_trends).toHaveLength(30);
  expect(byTemplate.overall_stats).toMatchObject({ total_sent: 4, open_rate: '50.00' });
  expect(byTemplate.template_performance.map((x: { name: string }) => x.name)).toEqual(['tpl_a']);
  expect(byTemplate.category_breakdown).toEqual([expect.objectContaining({ category: 'onboarding', template_count: 1, total_sent: 4 })]);
  const byCategory = (await get('?category=marketing')).json();
  expect(byCategory.overall_stats).toMatchObject({ total_sent: 2, delivery_rate: '50.00' });
  expect(byCategory.category_breakdown.map((x: { category: string }) => x.category)).toEqual(['marketing']);
  const wide = (await get('?period=60')).json();
  expect(wide.overall_stats.total_sent).toBe(7);
});

it('rejects a bad period or template id with 400, role user with 403, no token with 401', async () => {
  expect((await get('?period=0')).statusCode).toBe(400);
  expect((await get('?template_id=nope')).statusCode).toBe(400);
  const user = await sessionFor(t, 'user');
  const forbidden = await t.app.inject({ method: 'GET', url: '/api/admin/email/analytics', headers: user.headers });
  expect(forbidden.statusCode).toBe(403);
  expect(forbidden.json().code).toBe('INSUFFICIENT_PERMISSIONS');
  expect((await t.app.inject({ method: 'GET', url: '/api/admin/email/analytics' })).statusCode).toBe(401);
});

it('raises the backlog alert when more than 100 pending rows are over 5 minutes old', async () => {
  await t.database.sql`insert into email_send_queue (to_email, subject, html_content, status, scheduled_for)
    select 'y@example.test', 's', 'h', 'pending', now() - interval '10 minutes' from generate_series(1, 101)`;
  const body = (await get('')).json();
  expect(body.alerts).toEqual({ stuck: 1, backlog: true });
  expect(body.queue_status.pending).toBe(102);
});

it('GET /api/admin/email/queue-health: the queue against spec 001 thresholds, for admins only', async () => {
  // The previous test left 101 rows due 10 minutes ago and one due 2 hours ago (plus a processing row).
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/email/queue-health', headers: admin.headers });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({
    success: true,
    status: 'alert',
    queue: { pending: 102, processing: 1, overdue: 102, stuck: 1, backlog: true, oldest_pending_since: expect.stringMatching(/Z$/) },
    thresholds: { backlog_pending: 100, backlog_minutes: 5, stuck_minutes: 60 },
    alerts: ['backlog: 102 emails have been pending for over 5 minutes (alert above 100)', 'stuck: 1 pending email is older than 60 minutes'],
  });
  const oldest = new Date(res.json().queue.oldest_pending_since).getTime();
  expect(Date.now() - oldest).toBeGreaterThan(2 * 3_600_000 - 60_000);
  const user = await sessionFor(t, 'user');
  expect((await t.app.inject({ method: 'GET', url: '/api/admin/email/queue-health', headers: user.headers })).statusCode).toBe(403);
  expect((await t.app.inject({ method: 'GET', url: '/api/admin/email/queue-health' })).statusCode).toBe(401);
});

it('formats rates with two decimals and 0.00 on an empty base', () => {
  expect(rate(1, 2)).toBe('50.00');
  expect(rate(2, 3)).toBe('66.67');
  expect(rate(5, 0)).toBe('0.00');
});
