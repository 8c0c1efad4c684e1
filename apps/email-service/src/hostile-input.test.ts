// Hostile input on email-service's real routes gets 400 VALIDATION_ERROR naming the field and writes
// nothing (issue 11 point 12). The shared guards themselves are tested in libs/http.
import { buildTestApp, sessionFor, type TestContext } from './test/helper';

let t: TestContext;
let admin: Awaited<ReturnType<typeof sessionFor>>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await sessionFor(t, 'admin');
});
afterAll(async () => t.close());

const base = '/api/admin/email/templates';
const template = (over: string) =>
  `{"name":"welcome_email","display_name":"Welcome","category":"onboarding","subject_template":"Welcome","html_template":"<p>Hi</p>","text_template":"Hi",${over}}`;
const templates = async () => Number((await t.database.sql`select count(*)::int as n from email_templates`)[0]!['n']);

it('refuses a NUL character in a template field with 400 naming it and writes no template', async () => {
  const before = await templates();
  const res = await t.app.inject({ method: 'POST', url: base, headers: { ...admin.headers, 'content-type': 'application/json' }, payload: template('"description":"a\\u0000b"') });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Invalid description: contains a NUL character or an unpaired surrogate' });
  expect(await templates()).toBe(before);
});

it('refuses default_variables nested 5,000 deep with 400 naming it and writes no template', async () => {
  const before = await templates();
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const res = await t.app.inject({ method: 'POST', url: base, headers: { ...admin.headers, 'content-type': 'application/json' }, payload: template(`"default_variables":{"x":${deep}}`) });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Invalid default_variables: is nested deeper than 32 levels' });
  expect(await templates()).toBe(before);
});

it('refuses period=0x10 with 400 naming it and accepts period=16', async () => {
  const hex = await t.app.inject({ url: '/api/admin/email/analytics?period=0x10', headers: admin.headers });
  expect(hex.statusCode).toBe(400);
  expect(hex.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'Invalid query.period: must be a number written in decimal digits' });
  const decimal = await t.app.inject({ url: '/api/admin/email/analytics?period=16', headers: admin.headers });
  expect(decimal.statusCode).toBe(200);
  expect(decimal.json().period).toBe(16);
});
