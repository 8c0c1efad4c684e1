// The admin application's pages over real data (spec 001 "Admin application reference", CONTRACTS §12):
// every page renders for admin and support, values are escaped, support sees no control and is refused
// any change, and the pages do real work through the admin services: flags with a rollout preview that
// matches the evaluator, templates with versions, diff and rollback, A/B tests, the blurb queue,
// impersonation with its audit trail, queue health. Bad input gets a message and changes nothing.
import { evaluateFlag } from '@story/flags';
import { buildTestApp, type TestContext } from '../../test/helper';
import { HTML, passwordAccount, signIn, type Browser, type PasswordAccount } from './test/dashboard.test-helper';
import { PREVIEW_CSP } from './pages/templates.page';

let t: TestContext;
let admin: PasswordAccount;
let support: PasswordAccount;
let a: Browser;
let s: Browser;

const HOSTILE = '<img src=x onerror=alert(1)>"\'&';

const PAGES = [
  '/dashboard',
  '/dashboard/users',
  '/dashboard/feature-flags',
  '/dashboard/ai-management',
  '/dashboard/ai-providers',
  '/dashboard/email',
  '/dashboard/email/ab-test',
  '/dashboard/analytics',
  '/dashboard/content',
  '/dashboard/editor',
  '/dashboard/conversation-testing',
  '/dashboard/conversations',
  '/dashboard/tools',
  '/dashboard/tools/book-blurb/queue',
  '/dashboard/billing',
  '/dashboard/waitlist',
  '/dashboard/voice-settings',
  '/dashboard/user-support',
  '/dashboard/support',
  '/dashboard/resources',
  '/dashboard/settings',
  '/dashboard/system',
];

let hostileUser: string;
let plainUser: string;
let templateId: string;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  admin = await passwordAccount(t, 'admin');
  support = await passwordAccount(t, 'support');
  hostileUser = (await passwordAccount(t, 'user', { fullName: HOSTILE })).userId;
  plainUser = (await passwordAccount(t, 'user', { fullName: 'Plain Person' })).userId;
  const sql = t.database.sql;
  await sql`insert into accounts (email) select 'pop' || i || '@example.test' from generate_series(1, 300) i`;
  await sql`insert into feature_flags (key, description, enabled, rollout_percentage) values ('hostile_flag', ${HOSTILE}, true, 30)`;
  const [tpl] = await sql`insert into email_templates (name, subject_template, html_template, required_variables) values ('seed_template', ${`Hello {{name}} ${HOSTILE}`}, '<p>Hi {{name}}</p>', '{name}') returning id`;
  templateId = tpl!['id'] as string;
  await sql`insert into email_template_versions (template_id, version, name, category, subject_template, html_template, required_variables, is_active) values (${templateId}, 1, 'seed_template', 'transactional', ${`Hello {{name}} ${HOSTILE}`}, '<p>Hi {{name}}</p>', '{name}', true)`;
  await sql`insert into blurb_queue (book_title, blurb) values (${HOSTILE}, 'A story of the sea.'), ('Second book', 'Another blurb.')`;
  await sql`insert into support_flags (user_id, content_type, content_id, reason, details) values (${plainUser}, 'story', gen_random_uuid(), 'offensive', ${HOSTILE})`;
  await sql`insert into campaigns (user_id, title, storyteller_name, relationship) values (${plainUser}, ${HOSTILE}, 'Gran', 'grandparent')`;
  a = await signIn(t, admin);
  s = await signIn(t, support);
});
afterAll(async () => t.close());

describe('every page', () => {
  it.each(PAGES)('%s renders for admin and support: 200, one <main>, labelled controls, no inline script or style', async (url) => {
    for (const browser of [a, s]) {
      const res = await browser.get(url);
      expect(res.statusCode).toBe(200);
      const body = res.body;
      expect(body.match(/<main\b/g)).toHaveLength(1);
      expect(body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle="|\son[a-z]+="/i);
      expect(body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[^"'\s<]*\.(css|js)\b/);
      // Every input, select and textarea (except hidden ones) has a label pointing at it.
      const ids = [...body.matchAll(/<(?:input|select|textarea)\b(?![^>]*type="hidden")[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
      const unnamed = [...body.matchAll(/<(?:input|select|textarea)\b(?![^>]*type="hidden")(?![^>]*\bid=)[^>]*>/g)];
      expect(unnamed).toEqual([]);
      for (const id of ids) expect(body).toContain(`for="${id}"`);
    }
  });

  it('escapes every value: names, titles, descriptions and reports with markup in them', async () => {
    for (const url of ['/dashboard', '/dashboard/users', `/dashboard/users/${hostileUser}`, '/dashboard/feature-flags', '/dashboard/feature-flags/hostile_flag', `/dashboard/email/templates/${templateId}/history`, '/dashboard/tools/book-blurb/queue', '/dashboard/user-support']) {
      const body = (await a.get(url)).body;
      expect(body).not.toContain('<img src=x');
      expect(body).not.toContain('onerror=alert(1)>"');
    }
    expect((await a.get(`/dashboard/users/${hostileUser}`)).body).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
    expect((await a.get('/dashboard/user-support')).body).toContain('&lt;img src=x');
  });

  it('answers an unknown page and an unknown id with a 404 page', async () => {
    expect((await a.get('/dashboard/nope')).statusCode).toBe(404);
    expect((await a.get('/dashboard/users/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await a.get('/dashboard/users/not-an-id')).statusCode).toBe(404);
    expect((await a.get(`/dashboard/email/templates/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
  });
});

describe('support sees everything and changes nothing', () => {
  it.each(PAGES)('%s shows support no form that changes anything', async (url) => {
    const body = (await s.get(url)).body;
    const posts = [...body.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]);
    expect(posts).toEqual(['/dashboard/sign-out', ...(url === '/dashboard/settings' ? ['/dashboard/sign-out'] : [])]);
  });

  it('refuses every change from support (403 page) and leaves the data as it was', async () => {
    const before = await t.database.sql`select (select count(*) from feature_flags) f, (select count(*) from email_template_versions) v, (select count(*) from admin_impersonations) i, (select count(*) from blurb_samples) b, (select count(*) from admin_audit_log) l`;
    const [queued] = await t.database.sql`select id from blurb_queue order by created_at limit 1`;
    const attempts = [
      ['/dashboard/feature-flags', { key: 'support_flag', enabled: 'on', rolloutPercentage: '10' }],
      [`/dashboard/email/templates/${templateId}`, { name: 'seed_template', subject_template: 'x', html_template: 'y' }],
      [`/dashboard/email/templates/${templateId}/rollback`, { version: '1' }],
      [`/dashboard/users/${plainUser}/impersonate`, { reason: 'checking the account' }],
      [`/dashboard/users/${plainUser}`, { subscription_tier: 'family' }],
      [`/dashboard/tools/book-blurb/queue/${queued!['id']}`, { decision: 'approve' }],
      ['/dashboard/system/clear-cache', {}],
      ['/dashboard/system/apply-migrations', {}],
      ['/dashboard/email/ab-test', { base_template_id: templateId, variant_name: 'x_b', variant_subject: 's', variant_html: 'h', test_percentage: '50', test_duration_days: '7', success_metric: 'open_rate' }],
      ['/dashboard/feature-flags/preview', { key: 'hostile_flag', rolloutPercentage: '10' }],
    ] as const;
    for (const [url, fields] of attempts) {
      const res = await s.post(url, fields);
      expect([url, res.statusCode]).toEqual([url, 403]);
      expect(res.body).toContain('Only an admin can change this');
    }
    expect(await t.database.sql`select (select count(*) from feature_flags) f, (select count(*) from email_template_versions) v, (select count(*) from admin_impersonations) i, (select count(*) from blurb_samples) b, (select count(*) from admin_audit_log) l`).toEqual(before);
  });
});

describe('feature flags', () => {
  it('creates and edits a flag through the form: the service writes it, its audit row and the evaluator sees it', async () => {
    const created = await a.post('/dashboard/feature-flags', { key: 'dash_rollout', description: 'From the dashboard', enabled: 'on', rolloutPercentage: '10', overrides: '', variants: '' });
    expect(created.statusCode).toBe(303);
    expect(created.headers.location).toBe('/dashboard/feature-flags/dash_rollout?saved=flag');
    const edited = await a.post('/dashboard/feature-flags', { key: 'dash_rollout', description: 'From the dashboard', enabled: 'on', rolloutPercentage: '60', overrides: `${plainUser} off not yet\n${(await t.database.sql`select email from accounts where id = ${hostileUser}`)[0]!['email']} on`, variants: '' });
    expect(edited.statusCode).toBe(303);
    const [flag] = await t.database.sql`select rollout_percentage, enabled from feature_flags where key = 'dash_rollout'`;
    expect(flag).toMatchObject({ rollout_percentage: 60, enabled: true });
    const overrides = await t.database.sql`select o.user_id, o.enabled, o.reason from feature_flag_overrides o join feature_flags f on f.id = o.flag_id where f.key = 'dash_rollout' order by o.enabled`;
    expect(overrides.map((o) => [o['user_id'], o['enabled'], o['reason']])).toEqual([
      [plainUser, false, 'not yet'],
      [hostileUser, true, null],
    ]);
    const audit = await t.database.sql`select action, actor_id from admin_audit_log where target_id = 'dash_rollout' order by created_at`;
    expect(audit.map((r) => r['action'])).toEqual(['feature_flag.create', 'feature_flag.update']);
    expect(audit[1]!['actor_id']).toBe(admin.userId);
    const page = await a.get('/dashboard/feature-flags/dash_rollout?saved=flag');
    expect(page.body).toContain('Feature flag saved.');
    expect(page.body).toContain('value="60"');
  });

  it('previews exactly the accounts the evaluator turns on (count and sample), for any draft', async () => {
    const ids = (await t.database.sql`select id from accounts order by id`).map((r) => r['id'] as string);
    const rule = { key: 'dash_rollout', enabled: true, rolloutPercentage: 37, variants: null, overrides: new Map([[plainUser, false]]) };
    const expected = ids.filter((id) => evaluateFlag(rule, id) !== false);
    const res = await a.get(`/dashboard/feature-flags/preview.json?key=dash_rollout&enabled=on&rolloutPercentage=37&overrides=${encodeURIComponent(`${plainUser} off`)}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(ids.length);
    expect(body.reached).toBe(expected.length);
    expect(body.sample.map((x: { id: string }) => x.id)).toEqual(expected.slice(0, 10));
    // Raising the percentage only adds accounts (CONTRACTS §7).
    const higher = (await a.get('/dashboard/feature-flags/preview.json?key=dash_rollout&enabled=on&rolloutPercentage=80')).json();
    expect(higher.reached).toBeGreaterThan(body.reached);
    // A variant split is counted per variant, and the switch off reaches nobody.
    const ab = (await a.get(`/dashboard/feature-flags/preview.json?key=dash_rollout&enabled=on&rolloutPercentage=100&variants=${encodeURIComponent('control 1\nblue 1')}`)).json();
    expect(ab.variants.control + ab.variants.blue).toBe(ids.length);
    expect((await a.get('/dashboard/feature-flags/preview.json?key=dash_rollout&rolloutPercentage=100')).json().reached).toBe(0);
    // The page shows the same figure without script.
    expect((await a.get('/dashboard/feature-flags/dash_rollout')).body).toContain('data-preview="reached">');
  });

  it('previews a draft without saving it (the no-script Preview button)', async () => {
    const res = await a.post('/dashboard/feature-flags/preview', { key: 'dash_rollout', enabled: 'on', rolloutPercentage: '5', overrides: '', variants: '' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Preview only: nothing is saved');
    expect((await t.database.sql`select rollout_percentage from feature_flags where key = 'dash_rollout'`)[0]!['rollout_percentage']).toBe(60);
  });

  it.each([
    [{ rolloutPercentage: '150' }, 'a whole number between 0 and 100'],
    [{ rolloutPercentage: 'ten' }, 'a whole number between 0 and 100'],
    [{ overrides: 'nobody@nowhere.test on' }, 'no account with the email nobody@nowhere.test'],
    [{ overrides: 'just-garbage' }, 'line 1'],
    [{ overrides: '00000000-0000-4000-8000-000000000000 on' }, 'does not exist'],
    [{ variants: 'control one' }, 'line 1'],
    [{ variants: 'a 0\nb 0' }, 'weight above 0'],
    [{ key: 'Bad Key' }, 'lowercase letters'],
  ])('refuses %j with a message on the page and saves nothing', async (change, message) => {
    const before = await t.database.sql`select f.rollout_percentage, f.updated_at, (select count(*) from feature_flag_overrides o where o.flag_id = f.id) n from feature_flags f where key = 'dash_rollout'`;
    const audits = (await t.database.sql`select count(*)::int n from admin_audit_log`)[0]!['n'];
    const res = await a.post('/dashboard/feature-flags', { key: 'dash_rollout', enabled: 'on', rolloutPercentage: '20', overrides: '', variants: '', ...change });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(message);
    expect(res.body).toContain('role="alert"');
    expect(await t.database.sql`select f.rollout_percentage, f.updated_at, (select count(*) from feature_flag_overrides o where o.flag_id = f.id) n from feature_flags f where key = 'dash_rollout'`).toEqual(before);
    expect((await t.database.sql`select count(*)::int n from admin_audit_log`)[0]!['n']).toBe(audits);
  });
});

describe('email templates', () => {
  const fields = (over: Record<string, string> = {}) => ({
    name: 'dash_welcome',
    display_name: 'Welcome',
    description: '',
    category: 'onboarding',
    subject_template: 'Welcome, {{name}}',
    html_template: '<h1 style="color:#333">Hello {{name}}</h1>',
    text_template: 'Hello {{name}}',
    available_variables: 'name: first name',
    default_variables: 'name = friend',
    required_variables: 'name',
    trigger_events: 'user_signup',
    send_delay_hours: '0',
    max_sends_per_user: '',
    is_active: 'on',
    ...over,
  });
  let id: string;

  it('creates a template, saves an edit as a new version, shows the diff, rolls back (a new version again)', async () => {
    const created = await a.post('/dashboard/email/templates', fields());
    expect(created.statusCode).toBe(303);
    id = /\/dashboard\/email\/templates\/([0-9a-f-]{36})/.exec(created.headers.location as string)![1]!;
    const edited = await a.post(`/dashboard/email/templates/${id}`, fields({ subject_template: 'Welcome aboard, {{name}}', html_template: '<h1>Hello {{name}}</h1>\n<p>Glad you came.</p>' }));
    expect(edited.statusCode).toBe(303);
    const [row] = await t.database.sql`select current_version, subject_template from email_templates where id = ${id}`;
    expect(row).toMatchObject({ current_version: 2, subject_template: 'Welcome aboard, {{name}}' });
    const history = await a.get(`/dashboard/email/templates/${id}/history?from=1&to=2`);
    expect(history.statusCode).toBe(200);
    expect(history.body).toContain('class="diff-add"');
    expect(history.body).toContain('Glad you came.');
    expect(history.body).toContain('&lt;h1&gt;Hello {{name}}&lt;/h1&gt;');
    const back = await a.post(`/dashboard/email/templates/${id}/rollback`, { version: '1' });
    expect(back.statusCode).toBe(303);
    const [after] = await t.database.sql`select current_version, subject_template from email_templates where id = ${id}`;
    expect(after).toMatchObject({ current_version: 3, subject_template: 'Welcome, {{name}}' });
    const versions = await t.database.sql`select version, change_note, changed_by from email_template_versions where template_id = ${id} order by version`;
    expect(versions.map((v) => [v['version'], v['change_note']])).toEqual([[1, 'created'], [2, 'updated'], [3, 'rollback to v1']]);
    expect(versions.every((v) => v['changed_by'] === admin.userId)).toBe(true);
    // Each change is in the audit log, with the operator, and the support page lists it.
    const audit = await t.database.sql`select action, actor_id from admin_audit_log where target_id = ${id} order by created_at`;
    expect(audit).toEqual(['create', 'update', 'rollback'].map((x) => ({ action: `email_template.${x}`, actor_id: admin.userId })));
    const log = await a.get('/dashboard/support?action=email_template');
    expect(log.statusCode).toBe(200);
    expect(log.body).toContain('email_template.rollback');
  });

  it('renders a draft with sample values in a sandboxed document: variables escaped, inline style allowed there only', async () => {
    const res = await a.post('/dashboard/email/templates/preview', { ...fields(), 'var.name': '<b>Ada</b>' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBe(PREVIEW_CSP);
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['content-security-policy']).not.toContain('script-src');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.body).toContain('<h1 style="color:#333">Hello &lt;b&gt;Ada&lt;/b&gt;</h1>');
    expect(res.body).toContain('Welcome, &lt;b&gt;Ada&lt;/b&gt;');
    // A required variable left empty is named.
    const missing = await a.post('/dashboard/email/templates/preview', { ...fields({ default_variables: '' }), 'var.name': '' });
    expect(missing.body).toContain('Missing required variables: name');
    // The saved template renders with its defaults.
    const saved = await a.get(`/dashboard/email/templates/${id}/preview`);
    expect(saved.body).toContain('Hello friend');
  });

  it.each([
    [{ subject_template: '' }, 'subject_template'],
    [{ name: 'Not An Identifier' }, 'lowercase letters'],
    [{ required_variables: 'name, missing_var' }, 'missing_var'],
    [{ default_variables: 'no equals sign' }, 'name = value'],
    [{ send_delay_hours: '-3' }, 'a whole number'],
    [{ category: 'spam' }, 'category'],
  ])('refuses an edit with %j: a message on the page, nothing saved', async (change, message) => {
    const before = await t.database.sql`select current_version, subject_template, name, updated_at from email_templates where id = ${id}`;
    const res = await a.post(`/dashboard/email/templates/${id}`, fields(change));
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(message);
    expect(await t.database.sql`select current_version, subject_template, name, updated_at from email_templates where id = ${id}`).toEqual(before);
  });

  it('refuses a rollback to a version that does not exist (404 page, nothing changed)', async () => {
    const res = await a.post(`/dashboard/email/templates/${id}/rollback`, { version: '99' });
    expect(res.statusCode).toBe(404);
    expect((await t.database.sql`select current_version from email_templates where id = ${id}`)[0]!['current_version']).toBe(3);
  });

  it('refuses a duplicate name on create (409 page naming the field), nothing created', async () => {
    const before = (await t.database.sql`select count(*)::int n from email_templates`)[0]!['n'];
    const res = await a.post('/dashboard/email/templates', fields());
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('already exists');
    expect((await t.database.sql`select count(*)::int n from email_templates`)[0]!['n']).toBe(before);
  });
});

describe('A/B tests', () => {
  const body = (over: Record<string, string> = {}) => ({ base_template_id: templateId, variant_name: 'seed_template_b', variant_display_name: '', variant_subject: 'Hi {{name}}!', variant_html: '<p>Hey {{name}}</p>', variant_text: '', test_percentage: '30', test_duration_days: '7', success_metric: 'open_rate', ...over });

  it('refuses bad values with messages, creating nothing', async () => {
    for (const [change, message] of [
      [{ test_percentage: '0' }, 'test_percentage'],
      [{ test_percentage: '100' }, 'test_percentage'],
      [{ variant_name: 'Bad Name' }, 'lowercase letters'],
      [{ base_template_id: 'nope' }, 'base_template_id'],
      [{ success_metric: 'revenue' }, 'success_metric'],
    ] as const) {
      const res = await a.post('/dashboard/email/ab-test', body(change));
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(message);
    }
    expect(await t.database.sql`select 1 from email_ab_tests`).toHaveLength(0);
    expect(await t.database.sql`select 1 from email_templates where name = 'seed_template_b'`).toHaveLength(0);
  });

  it('creates a running test with its variant, then lists it with its significance', async () => {
    const res = await a.post('/dashboard/email/ab-test', body());
    expect(res.statusCode).toBe(303);
    const [test] = await t.database.sql`select id, status, test_percentage, variant_template_id from email_ab_tests`;
    expect(test).toMatchObject({ status: 'running', test_percentage: 30 });
    // 200 sends per arm: the variant opens 60%, the base 30% (significant).
    const [variant] = await t.database.sql`select id from email_templates where name = 'seed_template_b'`;
    await t.database.sql`insert into email_send_queue (template_id, to_email, subject, html_content, status, sent_at, opened_at, ab_test_id, ab_variant)
      select ${templateId}, 'b' || i || '@example.test', 's', 'h', 'sent', now(), case when i <= 60 then now() end, ${test!['id']}, 'base' from generate_series(1, 200) i`;
    await t.database.sql`insert into email_send_queue (template_id, to_email, subject, html_content, status, sent_at, opened_at, ab_test_id, ab_variant)
      select ${variant!['id']}, 'v' || i || '@example.test', 's', 'h', 'sent', now(), case when i <= 120 then now() end, ${test!['id']}, 'variant' from generate_series(1, 200) i`;
    const page = await a.get('/dashboard/email/ab-test');
    expect(page.body).toContain('badge-significant');
    expect(page.body).toContain('winner: <strong>variant</strong>');
    expect(page.body).toContain('400 samples');
    // A second running test on the same base is refused with the service's message.
    const again = await a.post('/dashboard/email/ab-test', body({ variant_name: 'seed_template_c' }));
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('A running A/B test already exists');
  });
});

describe('blurb queue', () => {
  it('approves a queued blurb into a sample (audit-logged); a second decision is refused', async () => {
    const [queued] = await t.database.sql`select id from blurb_queue where book_title = 'Second book'`;
    const url = `/dashboard/tools/book-blurb/queue/${queued!['id']}`;
    const res = await a.post(url, { decision: 'approve', note: 'Lovely' });
    expect(res.statusCode).toBe(303);
    expect((await t.database.sql`select status, review_note, sample_id from blurb_queue where id = ${queued!['id']}`)[0]).toMatchObject({ status: 'approved', review_note: 'Lovely' });
    expect(await t.database.sql`select 1 from blurb_samples where book_title = 'Second book'`).toHaveLength(1);
    expect(await t.database.sql`select 1 from admin_audit_log where action = 'blurb_queue.approve'`).toHaveLength(1);
    const again = await a.post(url, { decision: 'reject' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('already approved');
    expect((await a.post(url, { decision: 'maybe' })).statusCode).toBe(400);
  });
});

describe('users and impersonation', () => {
  it('changes a tier (audit-logged) and refuses a bad value', async () => {
    expect((await a.post(`/dashboard/users/${plainUser}`, { subscription_tier: 'family', role: 'user' })).statusCode).toBe(303);
    expect((await t.database.sql`select subscription_tier from profiles where id = ${plainUser}`)[0]!['subscription_tier']).toBe('family');
    expect(await t.database.sql`select 1 from admin_audit_log where action = 'user.update' and target_id = ${plainUser}`).toHaveLength(1);
    const bad = await a.post(`/dashboard/users/${plainUser}`, { subscription_tier: 'gold' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('must be one of');
    expect((await t.database.sql`select subscription_tier from profiles where id = ${plainUser}`)[0]!['subscription_tier']).toBe('family');
  });

  it('requires a reason, then shows the token once with its countdown and end button; the audit page lists it; ending revokes it', async () => {
    const none = await a.post(`/dashboard/users/${plainUser}/impersonate`, { reason: '  ' });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('give the reason');
    expect(await t.database.sql`select 1 from admin_impersonations`).toHaveLength(0);

    const started = await a.post(`/dashboard/users/${plainUser}/impersonate`, { reason: 'Checking a broken book for the user' });
    expect(started.statusCode).toBe(200);
    const token = /id="imp-token"[^>]*>([^<]+)</.exec(started.body)![1]!;
    expect(started.body).toContain('data-countdown-until="');
    expect(started.headers['cache-control']).toBe('no-store');
    const [imp] = await t.database.sql`select id, reason, session_id, expires_at from admin_impersonations`;
    expect(imp!['reason']).toBe('Checking a broken book for the user');
    expect(started.body).toContain(`action="/dashboard/impersonations/${imp!['id']}/end"`);
    const minutes = (new Date(imp!['expires_at']).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    // The token is the user's on user routes, refused on admin routes.
    expect((await t.app.inject({ method: 'GET', url: '/api/user/emails/received', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(403);

    // Reloading the page posts the form again: no second session, a page with the way to end the running one.
    const again = await a.post(`/dashboard/users/${plainUser}/impersonate`, { reason: 'Checking a broken book for the user' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('already acting as this user');
    expect(again.body).toContain(`action="/dashboard/impersonations/${imp!['id']}/end"`);
    expect(again.body).not.toContain('id="imp-token"');
    expect(await t.database.sql`select 1 from admin_impersonations`).toHaveLength(1);

    const audit = await a.get('/dashboard/support');
    expect(audit.body).toContain('Checking a broken book for the user');
    expect(audit.body).toContain('user.impersonate.start');

    expect((await a.post(`/dashboard/impersonations/${imp!['id']}/end`, {})).statusCode).toBe(303);
    expect((await t.database.sql`select revoked_reason from auth_sessions where id = ${imp!['session_id']}`)[0]!['revoked_reason']).toBe('impersonation_ended');
    expect((await t.app.inject({ method: 'GET', url: '/api/user/emails/received', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    expect(await t.database.sql`select 1 from admin_audit_log where action = 'user.impersonate.end'`).toHaveLength(1);
    // Ending it twice is refused with a clear page.
    expect((await a.post(`/dashboard/impersonations/${imp!['id']}/end`, {})).statusCode).toBe(409);
    // Once ended, a new one can start.
    const next = await a.post(`/dashboard/users/${plainUser}/impersonate`, { reason: 'A second look at the book' });
    expect(next.statusCode).toBe(200);
    expect(next.body).toContain('id="imp-token"');
    const ended = await t.database.sql`select id from admin_impersonations where ended_at is null`;
    expect(ended).toHaveLength(1);
    expect((await a.post(`/dashboard/impersonations/${ended[0]!['id']}/end`, {})).statusCode).toBe(303);
  });

  it('refuses to impersonate an admin or support account, with a page saying so', async () => {
    const res = await a.post(`/dashboard/users/${support.userId}/impersonate`, { reason: 'testing the refusal' });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('cannot be impersonated');
  });

  it('finds accounts by email or name, and pages through them without counting them all', async () => {
    const res = await a.get('/dashboard/users?search=Plain');
    expect(res.body).toContain('Plain Person');
    expect(res.body).not.toContain('&lt;img src=x');
    const total = Number((await t.database.sql`select count(*)::int n from accounts`)[0]!['n']);
    const first = await a.get('/dashboard/users');
    expect(first.body.match(/<tr><td><a href="\/dashboard\/users\//g)).toHaveLength(25);
    expect(first.body).toContain('href="/dashboard/users?offset=25" rel="next"');
    const lastOffset = Math.floor((total - 1) / 25) * 25;
    const last = await a.get(`/dashboard/users?offset=${lastOffset}`);
    expect(last.body.match(/<tr><td><a href="\/dashboard\/users\//g)).toHaveLength(total - lastOffset);
    expect(last.body).not.toContain('rel="next"');
    expect(last.body).toContain('rel="prev"');
  });
});

describe('queue health and delivery', () => {
  it('shows pending, processing, stuck and the backlog alert of spec 001 Limits', async () => {
    const clear = await a.get('/dashboard/analytics');
    expect(clear.body).toContain('No backlog');
    await t.database.sql`insert into email_send_queue (to_email, subject, html_content, status, scheduled_for)
      select 'q' || i || '@example.test', 'Queued', 'h', 'pending', now() - interval '10 minutes' from generate_series(1, 101) i`;
    await t.database.sql`insert into email_send_queue (to_email, subject, html_content, status, scheduled_for)
      select 's' || i || '@example.test', 'Stuck', 'h', 'pending', now() - interval '2 hours' from generate_series(1, 3) i`;
    const res = await a.get('/dashboard/analytics');
    expect(res.body).toContain('Backlog: more than 100 emails have been waiting over 5 minutes.');
    expect(res.body).toContain('3 pending emails have been due for more than an hour (stuck).');
    expect(res.body).toMatch(/<dt>Pending<\/dt><dd>104<\/dd>/);
    // Addresses of recipients are not spelled out.
    expect(res.body).not.toContain('q1@example.test');
  });
});

describe('system', () => {
  it('clears the caches of every service and writes the audit row', async () => {
    const res = await a.post('/dashboard/system/clear-cache', {});
    expect(res.statusCode).toBe(303);
    expect(await t.database.sql`select 1 from admin_audit_log where action = 'cache.clear' and actor_id = ${admin.userId}`).toHaveLength(1);
  });

  it('reports the migrations as up to date', async () => {
    expect((await a.get('/dashboard/system')).body).toContain('up to date');
  });
});

it('is keyed per operator by the admin limit (non-HTML clients get the email-service 429 shape)', async () => {
  const limited = await buildTestApp({ RATE_LIMIT_SCALE: '0.05' });
  try {
    const op = await passwordAccount(limited, 'admin');
    const browser = await signIn(limited, op);
    let last = 0;
    for (let i = 0; i < 8 && last !== 429; i++) last = (await browser.get('/dashboard/settings')).statusCode;
    expect(last).toBe(429);
    const res = await limited.app.inject({ method: 'GET', url: '/dashboard/settings', headers: { cookie: browser.cookie } });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await browser.get('/dashboard/settings')).body).toContain('Too many requests');
    void HTML;
  } finally {
    await limited.close();
  }
});
