// Admin templates API against a real database: CRUD, versions, validation, roles.
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';

let t: TestContext;
let admin: Awaited<ReturnType<typeof sessionFor>>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await sessionFor(t, 'admin');
});
afterAll(async () => t.close());

const base = '/api/admin/email/templates';
const body = (over: Record<string, unknown> = {}) => ({
  name: 'welcome_email',
  display_name: 'Welcome',
  description: 'Sent after signup',
  category: 'onboarding',
  subject_template: 'Welcome {{user_name}}',
  html_template: '<p>Hi {{user_name}}, go to {{onboarding_url}}</p>',
  text_template: 'Hi {{user_name}}',
  required_variables: ['user_name', 'onboarding_url'],
  available_variables: { user_name: 'Name' },
  ...over,
});

it('creates a template (201), writes version 1, and reads it back', async () => {
  const res = await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body() });
  expect(res.statusCode).toBe(201);
  const { success, template, message } = res.json();
  expect(success).toBe(true);
  expect(message).toEqual(expect.any(String));
  expect(template).toMatchObject({ name: 'welcome_email', display_name: 'Welcome', category: 'onboarding', is_active: true, is_system: false, current_version: 1, required_variables: ['user_name', 'onboarding_url'], total_sent: 0 });
  expect(new Date(template.created_at).toISOString()).toBe(template.created_at);
  const versions = await t.database.sql`select version, name, subject_template, changed_by from email_template_versions where template_id = ${template.id}`;
  expect(versions).toEqual([{ version: 1, name: 'welcome_email', subject_template: 'Welcome {{user_name}}', changed_by: admin.userId }]);

  const got = await t.app.inject({ method: 'GET', url: `${base}/${template.id}`, headers: admin.headers });
  expect(got.statusCode).toBe(200);
  expect(got.json()).toEqual({ success: true, template });
});

it('lists missing required fields in VALIDATION_ERROR', async () => {
  const res = await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: { display_name: 'x' } });
  expect(res.statusCode).toBe(400);
  expect(res.json().code).toBe('VALIDATION_ERROR');
  expect(res.json().details.missing_fields.sort()).toEqual(['html_template', 'name', 'subject_template']);
});

it('rejects a non-identifier name, an unknown category and unused required_variables with 400', async () => {
  const badName = await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body({ name: 'Welcome Email' }) });
  expect(badName.statusCode).toBe(400);
  expect(badName.json().details.invalid_fields).toHaveProperty('name');
  const badCategory = await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body({ name: 'x_1', category: 'spam' }) });
  expect(badCategory.statusCode).toBe(400);
  expect(badCategory.json().details.invalid_fields).toHaveProperty('category');
  const unused = await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body({ name: 'x_2', required_variables: ['user_name', 'nowhere'] }) });
  expect(unused.statusCode).toBe(400);
  expect(unused.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'required_variables', missing_placeholders: ['nowhere'] } });
  const [{ n }] = await t.database.sql`select count(*)::int as n from email_templates where name in ('x_1', 'x_2')`;
  expect(n).toBe(0);
});

it('answers 409 CONFLICT for a duplicate name', async () => {
  await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body({ name: 'dup_name' }) });
  const res = await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body({ name: 'dup_name' }) });
  expect(res.statusCode).toBe(409);
  expect(res.json().code).toBe('CONFLICT');
});

it('updates a template: bumps the version, writes a version row, is_active false makes it inactive', async () => {
  const created = (await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body({ name: 'to_update' }) })).json().template;
  const res = await t.app.inject({ method: 'PUT', url: `${base}/${created.id}`, headers: admin.headers, payload: body({ name: 'to_update', subject_template: 'Hello {{user_name}} {{onboarding_url}}', is_active: false }) });
  expect(res.statusCode).toBe(200);
  expect(res.json().template).toMatchObject({ current_version: 2, is_active: false, subject_template: 'Hello {{user_name}} {{onboarding_url}}' });
  const versions = await t.database.sql`select version, subject_template, is_active from email_template_versions where template_id = ${created.id} order by version`;
  expect(versions).toEqual([
    { version: 1, subject_template: 'Welcome {{user_name}}', is_active: true },
    { version: 2, subject_template: 'Hello {{user_name}} {{onboarding_url}}', is_active: false },
  ]);
  const inactive = (await t.app.inject({ method: 'GET', url: `${base}?status=inactive`, headers: admin.headers })).json();
  expect(inactive.templates.map((x: { name: string }) => x.name)).toContain('to_update');
  const active = (await t.app.inject({ method: 'GET', url: `${base}?status=active&limit=100`, headers: admin.headers })).json();
  expect(active.templates.map((x: { name: string }) => x.name)).not.toContain('to_update');
});

it('filters by category and search (wildcards escaped) and paginates', async () => {
  await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body({ name: 'promo_a', category: 'marketing', description: 'Spring 100% sale' }) });
  await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body({ name: 'promo_b', category: 'marketing', description: 'Autumn sale' }) });
  const market = (await t.app.inject({ method: 'GET', url: `${base}?category=marketing&limit=1`, headers: admin.headers })).json();
  expect(market.pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
  expect(market.templates).toHaveLength(1);
  const pct = (await t.app.inject({ method: 'GET', url: `${base}?search=${encodeURIComponent('100%')}`, headers: admin.headers })).json();
  expect(pct.templates.map((x: { name: string }) => x.name)).toEqual(['promo_a']);
  const wild = (await t.app.inject({ method: 'GET', url: `${base}?search=${encodeURIComponent('%')}`, headers: admin.headers })).json();
  expect(wild.templates.map((x: { name: string }) => x.name)).toEqual(['promo_a']);
  const byName = (await t.app.inject({ method: 'GET', url: `${base}?search=PROMO_`, headers: admin.headers })).json();
  expect(byName.pagination.total).toBe(2);
  const tooMany = await t.app.inject({ method: 'GET', url: `${base}?limit=101`, headers: admin.headers });
  expect(tooMany.statusCode).toBe(400);
});

it('answers 404 TEMPLATE_NOT_FOUND for unknown and malformed ids', async () => {
  for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `${base}/${id}`, headers: admin.headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Template not found', code: 'TEMPLATE_NOT_FOUND', details: { template_id: id } });
    }
    const put = await t.app.inject({ method: 'PUT', url: `${base}/${id}`, headers: admin.headers, payload: body({ name: 'ghost' }) });
    expect(put.statusCode).toBe(404);
    expect(put.json().code).toBe('TEMPLATE_NOT_FOUND');
  }
});

it('deletes an ordinary template but refuses a system template', async () => {
  const created = (await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body({ name: 'to_delete' }) })).json().template;
  const del = await t.app.inject({ method: 'DELETE', url: `${base}/${created.id}`, headers: admin.headers });
  expect(del.statusCode).toBe(200);
  expect(del.json()).toEqual({ success: true, message: expect.stringContaining('to_delete') });
  expect(await t.database.sql`select id from email_templates where id = ${created.id}`).toHaveLength(0);

  const [sys] = await t.database.sql`insert into email_templates (name, subject_template, html_template, is_system) values ('password_reset', 's', 'h', true) returning id`;
  const refused = await t.app.inject({ method: 'DELETE', url: `${base}/${sys!['id']}`, headers: admin.headers });
  expect(refused.statusCode).toBe(403);
  expect(refused.json()).toMatchObject({ error: 'System templates cannot be deleted', code: 'SYSTEM_TEMPLATE' });
  expect(await t.database.sql`select id from email_templates where id = ${sys!['id']}`).toHaveLength(1);
});

it('audit-logs every change in its own transaction: create, update, delete, with the admin, before and after', async () => {
  const auditOf = (id: string) =>
    t.database.sql`select action, actor_id, target_type, ip_prefix, data from admin_audit_log where target_id = ${id} order by created_at, action`;
  const created = (await t.app.inject({ method: 'POST', url: base, headers: admin.headers, payload: body({ name: 'audited_one' }) })).json().template;
  const edited = body({ name: 'audited_one', html_template: '<p>Bye {{user_name}} {{onboarding_url}}</p>' });
  expect((await t.app.inject({ method: 'PUT', url: `${base}/${created.id}`, headers: admin.headers, payload: edited })).statusCode).toBe(200);
  // A refused change writes no audit row either.
  expect((await t.app.inject({ method: 'PUT', url: `${base}/${created.id}`, headers: admin.headers, payload: body({ name: 'audited_one', required_variables: ['nowhere'] }) })).statusCode).toBe(400);
  expect((await t.app.inject({ method: 'DELETE', url: `${base}/${created.id}`, headers: admin.headers })).statusCode).toBe(200);

  const rows = await auditOf(created.id);
  expect(rows.map((r) => r['action'])).toEqual(['email_template.create', 'email_template.update', 'email_template.delete']);
  for (const r of rows) expect(r).toMatchObject({ actor_id: admin.userId, target_type: 'email_template', ip_prefix: expect.any(String) });
  const [create, update, remove] = rows.map((r) => r['data'] as { before: Record<string, unknown> | null; after: Record<string, unknown> | null });
  expect(create!.before).toBeNull();
  expect(create!.after).toMatchObject({ name: 'audited_one', version: 1, subject_template: 'Welcome {{user_name}}', html_template_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  // The bodies are kept as digests: a change shows, the 500 kB a body may hold does not.
  expect(update!.before).toEqual(create!.after);
  expect(update!.after).toMatchObject({ version: 2 });
  expect(update!.after!['html_template_sha256']).not.toBe(update!.before!['html_template_sha256']);
  expect(JSON.stringify(update)).not.toContain('Bye');
  expect(remove).toEqual({ before: update!.after, after: null, requestId: expect.any(String) });
});

it('refuses role user with 403 INSUFFICIENT_PERMISSIONS and no token with 401', async () => {
  const user = await sessionFor(t, 'user');
  for (const [method, url] of [['GET', base], ['POST', base], ['GET', `${base}/x`], ['PUT', `${base}/x`], ['DELETE', `${base}/x`]] as const) {
    const res = await t.app.inject({ method, url, headers: user.headers, payload: method === 'POST' || method === 'PUT' ? {} : undefined });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Admin access required', code: 'INSUFFICIENT_PERMISSIONS' });
    const anon = await t.app.inject({ method, url });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().code).toBe('UNAUTHORIZED');
  }
});

it('documents the routes with operationIds', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  expect(doc.paths['/api/admin/email/templates'].post.operationId).toBe('createEmailTemplate');
  expect(doc.paths['/api/admin/email/templates/{id}'].delete.operationId).toBe('deleteEmailTemplate');
});
