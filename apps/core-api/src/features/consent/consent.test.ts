// /api/consent against a real database: status before any choice, partial updates merged with the
// current choice, every change kept in consent_records, concurrent updates not losing one another,
// bad input refused with nothing written, and one caller never seeing another's consents.
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';

let t: TestContext;
let me: SignedUp;
let other: SignedUp;

beforeAll(async () => {
  t = await buildTestApp();
  me = await signUp(t.app);
  other = await signUp(t.app);
});
afterAll(async () => t.close());

const status = (who: SignedUp = me) => t.app.inject({ method: 'GET', url: '/api/consent/status', headers: who.headers });
const update = (payload: unknown, who: SignedUp = me) => t.app.inject({ method: 'POST', url: '/api/consent/update', headers: who.headers, payload: payload as object });
const rows = (userId = me.userId) => t.database.sql`select marketing, analytics, third_party, source, ip_prefix from consent_records where user_id = ${userId} order by created_at, id`;

it('before any choice: all false, lastUpdated null', async () => {
  const res = await status();
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ consents: { marketing: false, analytics: false, thirdParty: false }, lastUpdated: null });
});

it('updates merge with the current choice and each change is a history row', async () => {
  const first = await update({ analytics: true });
  expect(first.statusCode).toBe(200);
  expect(first.json()).toMatchObject({ success: true, changed: true, consents: { marketing: false, analytics: true, thirdParty: false } });
  const second = await update({ marketing: true, source: 'banner' });
  expect(second.json().consents).toEqual({ marketing: true, analytics: true, thirdParty: false });

  const now = await status();
  expect(now.json().consents).toEqual({ marketing: true, analytics: true, thirdParty: false });
  expect(Date.parse(now.json().lastUpdated)).toBeGreaterThanOrEqual(Date.parse(first.json().lastUpdated));

  const history = await rows();
  expect(history.map((r) => [r.marketing, r.analytics, r.third_party, r.source])).toEqual([
    [false, true, false, 'settings'],
    [true, true, false, 'banner'],
  ]);
  // Stored addresses lose their last octet (spec 000 Authentication 10).
  expect(history[0]!.ip_prefix).toMatch(/\.0$/);

  const listed = await t.app.inject({ method: 'GET', url: '/api/consent/history', headers: me.headers });
  expect(listed.json().history.map((h: { marketing: boolean }) => h.marketing)).toEqual([true, false]);
});

it('sending the current values again writes nothing', async () => {
  const before = (await rows()).length;
  const res = await update({ marketing: true });
  expect(res.json()).toMatchObject({ changed: false });
  expect(await rows()).toHaveLength(before);
});

it('concurrent updates of different consents both land', async () => {
  await Promise.all([update({ thirdParty: true }, other), update({ analytics: true }, other), update({ marketing: true }, other)]);
  expect((await status(other)).json().consents).toEqual({ marketing: true, analytics: true, thirdParty: true });
  expect(await rows(other.userId)).toHaveLength(3);
});

it.each([
  [{}, 'body'],
  [{ marketing: 'yes' }, 'marketing'],
  [{ thirdParty: 1 }, 'thirdParty'],
  [{ third_party: true }, 'third_party'],
  [{ analytics: true, source: 'somewhere' }, 'source'],
])('%j → 400 naming %s, nothing written', async (payload, field) => {
  const before = await rows();
  const res = await update(payload);
  expect(res.statusCode).toBe(400);
  expect(`${res.json().error} ${res.json().details ?? ''}`).toContain(field === 'body' ? 'at least one' : field);
  expect(await rows()).toEqual(before);
});

it('needs a session', async () => {
  expect((await t.app.inject({ method: 'GET', url: '/api/consent/status' })).statusCode).toBe(401);
  expect((await t.app.inject({ method: 'POST', url: '/api/consent/update', payload: { marketing: true } })).statusCode).toBe(401);
});
