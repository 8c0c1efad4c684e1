// GET /api/email/unsubscribe shows a page and changes nothing; POST (form or RFC 8058 one-click) applies it.
import { buildPipelineApp, createAccount, enqueue, type PipelineContext } from '../../workers/test/pipeline-harness';

let t: PipelineContext;
beforeAll(async () => {
  t = await buildPipelineApp();
});
afterAll(async () => t.close());

/** Send a marketing email and return the unsubscribe URL path from its List-Unsubscribe header. */
async function unsubscribeLink() {
  const user = await createAccount(t);
  await enqueue(t, { userId: user.id, to: user.email, category: 'marketing' });
  await t.app.emailQueueWorker.processBatch();
  const mail = t.smtp.received.find((m) => m.to.includes(user.email))!;
  const url = new URL(mail.header('List-Unsubscribe')!.replace(/^<|>$/g, ''));
  return { user, path: `${url.pathname}${url.search}`, token: url.searchParams.get('token')! };
}

const prefs = async (userId: string) => (await t.database.sql`select * from user_email_preferences where user_id = ${userId}`)[0];

it('GET shows a confirmation form and changes nothing', async () => {
  const { user, path } = await unsubscribeLink();
  const res = await t.app.inject({ method: 'GET', url: path });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.body).toContain('<form method="post"');
  expect(res.body).toContain(user.email);
  expect(await prefs(user.id)).toBeUndefined();
});

it('POST with the RFC 8058 one-click body unsubscribes from the category, and later marketing mail is not sent', async () => {
  const { user, path } = await unsubscribeLink();
  const res = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
  expect(res.statusCode).toBe(200);
  expect(res.body).toContain('You are unsubscribed');
  expect((await prefs(user.id))!['unsubscribed_categories']).toEqual(['marketing']);

  const next = await enqueue(t, { userId: user.id, to: user.email, category: 'marketing' });
  const transactional = await enqueue(t, { userId: user.id, to: user.email, category: 'transactional' });
  await t.app.emailQueueWorker.processBatch();
  const statuses = await t.database.sql`select id, status from email_send_queue where id in (${next}, ${transactional})`;
  expect(Object.fromEntries(statuses.map((r) => [r['id'], r['status']]))).toEqual({ [next]: 'cancelled', [transactional]: 'sent' });
});

it('POST from the form (token in the body) works too', async () => {
  const { user, token } = await unsubscribeLink();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/email/unsubscribe',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token }).toString(),
  });
  expect(res.statusCode).toBe(200);
  expect((await prefs(user.id))!['unsubscribed_categories']).toEqual(['marketing']);
});

it('a bad token gets a 400 page on GET and POST, with nothing echoed unescaped', async () => {
  const bad = encodeURIComponent('<script>x</script>.abc');
  const get = await t.app.inject({ method: 'GET', url: `/api/email/unsubscribe?token=${bad}` });
  expect(get.statusCode).toBe(400);
  expect(get.body).not.toContain('<script>');
  const post = await t.app.inject({ method: 'POST', url: `/api/email/unsubscribe?token=${bad}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
  expect(post.statusCode).toBe(400);
  expect(post.headers['content-type']).toMatch(/^text\/html/);
});
