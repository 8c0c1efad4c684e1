// Admin A/B tests against a real database: creation in one transaction, results from queue rows.
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';

let t: TestContext;
let admin: Awaited<ReturnType<typeof sessionFor>>;
let baseId: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await sessionFor(t, 'admin');
  [{ id: baseId }] = (await t.database.sql`insert into email_templates (name, display_name, category, subject_template, html_template, trigger_events, default_variables)
    values ('ab_base', 'Weekly digest', 'marketing', 'Your week', '<p>week</p>', '{weekly}', '{"a": 1}') returning id`) as unknown as [{ id: string }];
});
afterAll(async () => t.close());

const url = '/api/admin/email/ab-test';
const body = (over: Record<string, unknown> = {}) => ({
  base_template_id: baseId,
  variant_name: 'ab_base_v2',
  variant_display_name: 'Bold subject',
  variant_subject: 'YOUR WEEK',
  variant_html: '<p>WEEK</p>',
  variant_text: 'WEEK',
  test_percentage: 50,
  test_duration_days: 7,
  success_metric: 'open_rate',
  ...over,
});

it('creates the variant template and the running test (201), then refuses a second running test (409)', async () => {
  const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: body() });
  expect(res.statusCode).toBe(201);
  const out = res.json();
  expect(out).toMatchObject({
    success: true,
    message: expect.any(String),
    ab_test: { name: 'Weekly digest vs ab_base_v2', base_template_id: baseId, test_percentage: 50, success_metric: 'open_rate', status: 'running' },
    base_template: { id: baseId, name: 'ab_base' },
    variant_template: { name: 'ab_base_v2', display_name: 'Bold subject', subject_template: 'YOUR WEEK', html_template: '<p>WEEK</p>', text_template: 'WEEK', category: 'marketing', is_system: false, default_variables: { a: 1 }, trigger_events: [] },
  });
  expect(out.ab_test.variant_template_id).toBe(out.variant_template.id);
  const days = (Date.parse(out.ab_test.end_date) - Date.parse(out.ab_test.start_date)) / 86_400_000;
  expect(days).toBe(7);
  expect(Math.abs(Date.parse(out.ab_test.start_date) - Date.now())).toBeLessThan(60_000);
  const [row] = await t.database.sql`select name, status, test_duration_days, created_by from email_ab_tests where id = ${out.ab_test.id}`;
  // Spec 001: named from the base template's display name and the variant *name*.
  expect(row).toEqual({ name: 'Weekly digest vs ab_base_v2', status: 'running', test_duration_days: 7, created_by: admin.userId });
  expect(await t.database.sql`select version from email_template_versions where template_id = ${out.variant_template.id}`).toEqual([{ version: 1 }]);
  // The variant and the test are audit-logged with the admin, in the creation's transaction.
  const audit = await t.database.sql`select action, actor_id, target_id from admin_audit_log where target_id in (${out.ab_test.id}, ${out.variant_template.id}) order by action`;
  expect(audit).toEqual([
    { action: 'email_ab_test.create', actor_id: admin.userId, target_id: out.ab_test.id },
    { action: 'email_template.create', actor_id: admin.userId, target_id: out.variant_template.id },
  ]);
  const auditRows = async () => Number((await t.database.sql`select count(*)::int as n from admin_audit_log`)[0]!['n']);
  const before = await auditRows();

  const again = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: body({ variant_name: 'ab_base_v3' }) });
  expect(again.statusCode).toBe(409);
  expect(again.json().code).toBe('AB_TEST_RUNNING');
  // The failed attempt left no variant template behind.
  expect(await t.database.sql`select id from email_templates where name = 'ab_base_v3'`).toHaveLength(0);
  expect(await auditRows()).toBe(before);
});

it('validates the body: test_percentage range, missing fields, unknown base (404)', async () => {
  for (const pct of [0, 100]) {
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: body({ test_percentage: pct, variant_name: 'x_pct' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.invalid_fields).toHaveProperty('test_percentage');
  }
  const days = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: body({ test_duration_days: 91, variant_name: 'x_days' }) });
  expect(days.statusCode).toBe(400);
  const missing = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { test_percentage: 10 } });
  expect(missing.statusCode).toBe(400);
  expect(missing.json().details.missing_fields).toEqual(expect.arrayContaining(['base_template_id', 'variant_name', 'variant_subject', 'variant_html']));
  const ghost = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: body({ base_template_id: '00000000-0000-4000-8000-000000000000', variant_name: 'x_ghost' }) });
  expect(ghost.statusCode).toBe(404);
  expect(ghost.json()).toMatchObject({ code: 'TEMPLATE_NOT_FOUND', details: { template_id: '00000000-0000-4000-8000-000000000000' } });
});

it('lists tests with results computed from queue rows and closes expired ones', async () => {
  const [test] = await t.database.sql`select id from email_ab_tests where base_template_id = ${baseId}`;
  const rows = (variant: string, n: number, opened: number) => t.database.sql`
    insert into email_send_queue (to_email, subject, html_content, status, ab_test_id, ab_variant, opened_at)
    select 'z@example.test', 's', 'h', 'sent', ${test!['id']}, ${variant}, case when g <= ${opened} then now() end from generate_series(1, ${n}) g`;
  await rows('base', 1000, 200);
  await rows('variant', 1000, 250);
  // Pending rows are not samples yet.
  await t.database.sql`insert into email_send_queue (to_email, subject, html_content, status, ab_test_id, ab_variant) values ('z@example.test', 's', 'h', 'pending', ${test!['id']}, 'variant')`;

  const res = await t.app.inject({ method: 'GET', url, headers: admin.headers });
  expect(res.statusCode).toBe(200);
  const out = res.json();
  expect(out.total).toBe(1);
  expect(out.ab_tests[0]).toMatchObject({
    id: test!['id'],
    status: 'running',
    base_template: { id: baseId, name: 'ab_base', display_name: 'Weekly digest' },
    variant_template: { name: 'ab_base_v2', display_name: 'Bold subject' },
    results: {
      base_stats: { sent: 1000, opened: 200, clicked: 0, open_rate: 0.2, click_rate: 0 },
      variant_stats: { sent: 1000, opened: 250, clicked: 0, open_rate: 0.25, click_rate: 0 },
      winner: 'variant',
      is_significant: true,
      improvement: '25.00%',
      total_samples: 2000,
    },
  });
  expect(out.ab_tests[0].results.confidence).toBeCloseTo(0.9926, 3);

  await t.database.sql`update email_ab_tests set start_date = now() - interval '10 days', end_date = now() - interval '1 day' where id = ${test!['id']}`;
  const running = (await t.app.inject({ method: 'GET', url: `${url}?status=running`, headers: admin.headers })).json();
  expect(running).toEqual({ success: true, ab_tests: [], total: 0 });
  const completed = (await t.app.inject({ method: 'GET', url: `${url}?status=completed`, headers: admin.headers })).json();
  expect(completed.ab_tests.map((x: { id: string }) => x.id)).toEqual([test!['id']]);
  expect((await t.database.sql`select status from email_ab_tests where id = ${test!['id']}`)[0]).toEqual({ status: 'completed' });

  // With the first test completed, the base may be tested again.
  const next = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: body({ variant_name: 'ab_base_v4', success_metric: 'click_rate' }) });
  expect(next.statusCode).toBe(201);
  const page = (await t.app.inject({ method: 'GET', url: `${url}?limit=1&offset=1`, headers: admin.headers })).json();
  expect(page.total).toBe(2);
  expect(page.ab_tests.map((x: { id: string }) => x.id)).toEqual([test!['id']]);
});

it('refuses role user (403) and no token (401)', async () => {
  const user = await sessionFor(t, 'user');
  for (const method of ['GET', 'POST'] as const) {
    const res = await t.app.inject({ method, url, headers: user.headers, payload: method === 'POST' ? body() : undefined });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Admin access required', code: 'INSUFFICIENT_PERMISSIONS' });
    expect((await t.app.inject({ method, url })).statusCode).toBe(401);
  }
});
