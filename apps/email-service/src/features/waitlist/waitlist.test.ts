// The waitlist against a real database: signup queues the confirmation email (only the token's hash is
// stored), the token works once and expires, free places run out, and the admin stats count real rows.
import { createHash } from 'node:crypto';
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';
import { createWaitlistService } from './waitlist.service';

let t: TestContext;
let admin: Awaited<ReturnType<typeof sessionFor>>;
let support: Awaited<ReturnType<typeof sessionFor>>;
beforeAll(async () => {
  t = await buildTestApp();
  [admin, support] = [await sessionFor(t, 'admin'), await sessionFor(t, 'support')];
});
afterAll(async () => t.close());

const join = (email: string, name?: string) => t.app.inject({ method: 'POST', url: '/api/waitlist', payload: { email, name } });
async function tokenSentTo(email: string): Promise<string> {
  const [row] = await t.database.sql`select text_content from email_send_queue where to_email = ${email} order by created_at desc limit 1`;
  return /token=([A-Za-z0-9_-]+)/.exec(String(row!['text_content']))![1]!;
}

it('signup queues a confirmation email and stores only the token hash; verifying works once', async () => {
  const res = await join('Ann@Example.test', 'Ann');
  expect(res.statusCode).toBe(202);
  const token = await tokenSentTo('ann@example.test');
  expect(token.length).toBeGreaterThanOrEqual(43);
  const [entry] = await t.database.sql`select email, name, verified, verification_token_hash from waitlist`;
  expect(entry).toEqual({ email: 'ann@example.test', name: 'Ann', verified: false, verification_token_hash: createHash('sha256').update(token).digest('hex') });

  // The same answer for an address already listed; within a minute nothing more is sent.
  expect((await join('ann@example.test')).json()).toEqual(res.json());
  expect(await t.database.sql`select id from email_send_queue where to_email = 'ann@example.test'`).toHaveLength(1);
  await t.database.sql`update waitlist set metadata = jsonb_build_object('tokenIssuedAt', (now() - interval '2 minutes')::text)`;
  expect((await join('ann@example.test')).statusCode).toBe(202);
  expect(await t.database.sql`select id from email_send_queue where to_email = 'ann@example.test'`).toHaveLength(2);
  const fresh = await tokenSentTo('ann@example.test');
  expect(fresh).not.toBe(token);
  expect((await t.app.inject({ method: 'POST', url: '/api/waitlist/verify', payload: { token } })).statusCode).toBe(400); // replaced

  const ok = await t.app.inject({ method: 'POST', url: '/api/waitlist/verify', payload: { token: fresh } });
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toEqual({ success: true, email: 'ann@example.test', verified: true, freeEligible: true });
  const again = await t.app.inject({ method: 'POST', url: '/api/waitlist/verify', payload: { token: fresh } });
  expect(again.statusCode).toBe(400);
  expect(again.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  expect((await t.database.sql`select verification_token_hash, verified from waitlist`)[0]).toEqual({ verification_token_hash: null, verified: true });
  expect((await join('bad-address')).json().details.invalid_fields).toHaveProperty('email');
});

it('an expired token is refused; free places run out in order', async () => {
  const waitlist = createWaitlistService({ db: t.database.db, appUrl: 'http://app.test', freePlaces: 2 });
  await waitlist.signup({ email: 'old@example.test' });
  const old = await tokenSentTo('old@example.test');
  await t.database.sql`update waitlist set metadata = jsonb_build_object('tokenIssuedAt', (now() - interval '8 days')::text) where email = 'old@example.test'`;
  await expect(waitlist.verify(old)).rejects.toMatchObject({ kind: 'validation' });

  await waitlist.signup({ email: 'b@example.test' });
  await waitlist.signup({ email: 'c@example.test' });
  expect((await waitlist.verify(await tokenSentTo('b@example.test'))).freeEligible).toBe(true); // Ann holds place 1
  expect((await waitlist.verify(await tokenSentTo('c@example.test'))).freeEligible).toBe(false);
});

it('admin stats: signups, verified, conversion (an account with the address) and free-eligible; list hides token hashes', async () => {
  await t.database.sql`insert into accounts (email, role) values ('b@example.test', 'user')`;
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/waitlist/stats', headers: support.headers });
  expect(res.statusCode).toBe(200);
  expect(res.json().waitlist).toEqual({ signups: 4, verified: 3, converted: 1, conversionRate: 0.25, freeEligible: 2, freePlaces: 1000 });
  const list = (await t.app.inject({ method: 'GET', url: '/api/admin/waitlist?verified=false', headers: admin.headers })).json();
  expect(list.items.map((i: { email: string }) => i.email)).toEqual(['old@example.test']);
  expect(list.items[0]).not.toHaveProperty('verification_token_hash');
  expect(list.items[0].pending_verification).toBe(true);
  expect((await t.app.inject({ method: 'GET', url: '/api/admin/waitlist/stats', headers: (await sessionFor(t, 'user')).headers })).statusCode).toBe(403);
  expect((await t.app.inject({ method: 'GET', url: '/api/admin/waitlist/stats' })).statusCode).toBe(401);
});

it('simultaneous signups of one new address (with extra fields) all answer 202: one row, one email', async () => {
  const email = 'racer@example.test';
  const answers = await Promise.all(
    Array.from({ length: 12 }, (_, i) => t.app.inject({ method: 'POST', url: '/api/waitlist', payload: { email, name: `Racer ${i}`, source: 'landing', referrer: 'x'.repeat(50), utm: { a: i } } })),
  );
  expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 202));
  expect(await t.database.sql`select id from waitlist where email = ${email}`).toHaveLength(1);
  expect(await t.database.sql`select id from email_send_queue where to_email = ${email}`).toHaveLength(1);
});
