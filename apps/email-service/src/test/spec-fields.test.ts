// Conformance of answers to the field lists of spec 001 (CONTRACTS §8): email templates, A/B tests (and
// their results) and queued emails in the user listing, each made through the API (or, for queue rows,
// as the automation library writes them) and compared key by key with the spec's list. Every spec field
// must be present under its exact name; any other key must be a known extra, so a renamed field fails.
import { buildTestApp, sessionFor, type TestContext } from './helper';

let t: TestContext;
let admin: Awaited<ReturnType<typeof sessionFor>>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await sessionFor(t, 'admin');
});
afterAll(async () => t.close());

function expectSpecKeys(answer: unknown, spec: readonly string[], extras: readonly string[] = []): void {
  expect(answer).toEqual(expect.any(Object));
  const keys = Object.keys(answer as object);
  expect(spec.filter((f) => !keys.includes(f))).toEqual([]);
  expect(keys.filter((k) => !spec.includes(k) && !extras.includes(k))).toEqual([]);
}

const TEMPLATE = [
  'id', 'name', 'display_name', 'description', 'category', 'subject_template', 'html_template', 'text_template', 'available_variables',
  'default_variables', 'required_variables', 'trigger_events', 'send_delay_hours', 'max_sends_per_user', 'is_active', 'is_system',
  'total_sent', 'total_opened', 'total_clicked', 'created_at', 'updated_at',
] as const;
const TEMPLATE_EXTRAS = ['current_version'];
const AB_TEST = ['id', 'name', 'base_template_id', 'variant_template_id', 'test_percentage', 'success_metric', 'status', 'start_date', 'end_date'] as const;
const ARM = ['sent', 'opened', 'clicked', 'open_rate', 'click_rate'] as const;
const RESULTS = ['base_stats', 'variant_stats', 'winner', 'confidence', 'is_significant', 'improvement', 'total_samples'] as const;
const TEMPLATE_REF = ['id', 'name', 'display_name'] as const;
const RECEIVED = ['id', 'subject', 'html_content', 'text_content', 'template_variables', 'status', 'created_at', 'sent_at', 'opened_at', 'clicked_at', 'email_templates'] as const;

async function createTemplate(name: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/email/templates',
    headers: admin.headers,
    payload: { name, display_name: 'Shape template', category: 'marketing', subject_template: 'Hi {{name}}', html_template: '<p>Hi {{name}}</p>', text_template: 'Hi' },
  });
}

it('email templates: create, get, update and list carry the Email template fields', async () => {
  const created = await createTemplate('shape_template');
  expect(created.statusCode).toBe(201);
  expectSpecKeys(created.json(), ['success', 'template', 'message']);
  expectSpecKeys(created.json().template, TEMPLATE, TEMPLATE_EXTRAS);
  const id = created.json().template.id as string;
  expectSpecKeys((await t.app.inject({ method: 'GET', url: `/api/admin/email/templates/${id}`, headers: admin.headers })).json().template, TEMPLATE, TEMPLATE_EXTRAS);
  const put = await t.app.inject({
    method: 'PUT',
    url: `/api/admin/email/templates/${id}`,
    headers: admin.headers,
    payload: { name: 'shape_template', subject_template: 'Hello {{name}}', html_template: '<p>Hello {{name}}</p>' },
  });
  expect(put.statusCode).toBe(200);
  expectSpecKeys(put.json(), ['success', 'template', 'message']);
  expectSpecKeys(put.json().template, TEMPLATE, TEMPLATE_EXTRAS);
  const list = (await t.app.inject({ method: 'GET', url: '/api/admin/email/templates', headers: admin.headers })).json();
  expectSpecKeys(list, ['success', 'templates', 'pagination']);
  expectSpecKeys(list.pagination, ['total', 'limit', 'offset', 'hasMore']);
  expectSpecKeys(list.templates[0], TEMPLATE, TEMPLATE_EXTRAS);
});

it('A/B tests: the create answer and the list (with templates and results) carry the spec 001 fields', async () => {
  const base = (await createTemplate('shape_base')).json().template;
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/admin/email/ab-test',
    headers: admin.headers,
    payload: { base_template_id: base.id, variant_name: 'shape_variant', variant_display_name: 'Shiny', variant_subject: 'S', variant_html: '<p>v</p>', test_percentage: 50, test_duration_days: 7, success_metric: 'open_rate' },
  });
  expect(created.statusCode).toBe(201);
  expectSpecKeys(created.json(), ['success', 'ab_test', 'base_template', 'variant_template', 'message']);
  expectSpecKeys(created.json().ab_test, AB_TEST);
  expect(created.json().ab_test.name).toBe('Shape template vs shape_variant');
  expectSpecKeys(created.json().variant_template, TEMPLATE, TEMPLATE_EXTRAS);

  const list = (await t.app.inject({ method: 'GET', url: '/api/admin/email/ab-test', headers: admin.headers })).json();
  expectSpecKeys(list, ['success', 'ab_tests', 'total']);
  const [test] = list.ab_tests;
  expectSpecKeys(test, [...AB_TEST, 'base_template', 'variant_template', 'results'], ['test_duration_days', 'created_at']);
  expectSpecKeys(test.base_template, TEMPLATE_REF);
  expectSpecKeys(test.variant_template, TEMPLATE_REF);
  expectSpecKeys(test.results, RESULTS);
  expectSpecKeys(test.results.base_stats, ARM);
  expectSpecKeys(test.results.variant_stats, ARM);
});

it('queued emails in the user listing carry the received-email fields and the template summary as email_templates', async () => {
  const me = await sessionFor(t, 'user', { verified: true });
  const [tpl] = await t.database.sql`select id from email_templates where name = 'shape_template'`;
  await t.database.sql`insert into email_send_queue (template_id, user_id, to_email, subject, html_content, text_content, template_variables, status, sent_at)
    values (${tpl!['id']}, ${me.userId}, ${me.email}, 'Hello', '<p>Hello</p>', 'Hello', '{"name": "Ann"}'::jsonb, 'sent', now())`;
  const res = await t.app.inject({ method: 'GET', url: '/api/user/emails/received', headers: me.headers });
  expect(res.statusCode).toBe(200);
  expectSpecKeys(res.json(), ['success', 'emails', 'total', 'limit', 'offset', 'has_more']);
  expectSpecKeys(res.json().emails[0], RECEIVED);
  expectSpecKeys(res.json().emails[0].email_templates, ['id', 'name', 'display_name', 'category']);
});
