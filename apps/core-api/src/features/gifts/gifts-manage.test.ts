// The purchaser's side of gifts and the admin pair: list and get (owner only, 404 to everyone else,
// family roles included), cancel, failed-delivery errors, retry with a new code, dismiss; invoices.
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { allow, createFamilyActors, runPermissionMatrix, type FamilyActors } from '../../test/permission-matrix';
import { buyGift, codeFromEmail, redeem, snapshot } from './gifts.test-helper';

let t: TestContext;
let actors: FamilyActors;
let admin: SignedUp;
beforeAll(async () => {
  t = await buildTestApp();
  actors = await createFamilyActors(t.app, t.database.sql);
  admin = await signUp(t.app);
  await t.database.sql`update accounts set role = 'admin' where id = ${admin.userId}`;
});
afterAll(async () => t.close());

const sql = () => t.database.sql;
const call = (who: SignedUp, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
/** Make the gift's current email fail, as the email worker records it. */
const failEmail = (giftId: string, attempt = 1) =>
  sql()`update email_send_queue set status = 'failed', error_message = 'mailbox unavailable' where idempotency_key = ${`gift:${giftId}:${attempt}`}`;

describe('permission matrix', () => {
  it('shows and changes a gift for its purchaser only; family roles and strangers get 404 and nothing changes', async () => {
    const owner = actors.owner;
    const shared = await buyGift(t.app, sql(), owner);
    await failEmail(shared.id);
    const before = await snapshot(sql());
    const others = ['contributor', 'viewer', 'removed', 'stranger'] as const;
    const mismatches = await runPermissionMatrix(t.app, actors, [
      { name: 'get gift', method: 'GET', url: `/api/gifts/${shared.id}`, expect: allow(200, 404, 404), actors: others },
      { name: 'retry gift', method: 'POST', url: '/api/gifts/retry', payload: { giftId: shared.id }, expect: allow(200, 404, 404), actors: others },
      { name: 'dismiss gift error', method: 'POST', url: '/api/gifts/errors/dismiss', payload: { giftId: shared.id }, expect: allow(200, 404, 404), actors: others },
      { name: 'cancel gift', method: 'DELETE', url: `/api/gifts/delete?id=${shared.id}`, expect: allow(200, 404, 404), actors: others },
    ]);
    expect(mismatches).toEqual([]);
    expect(await snapshot(sql())).toEqual(before);
    // Their lists and error lists do not hold it either.
    for (const name of others) {
      expect((await call(actors[name], 'GET', '/api/gifts/list')).json().gifts).toEqual([]);
      expect((await call(actors[name], 'GET', '/api/gifts/errors')).json().errors).toEqual([]);
    }
    // The owner gets it.
    const mine = await call(owner, 'GET', `/api/gifts/${shared.id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().gift).toMatchObject({ id: shared.id, recipient_name: 'Grandma Rose', status: 'pending', delivery_status: 'failed' });
  });

  it('keeps the admin routes to role admin: 403 for every other caller', async () => {
    const bought = await buyGift(t.app, sql(), actors.owner);
    for (const who of [actors.owner, actors.stranger]) {
      expect((await call(who, 'GET', '/api/gifts/admin/list')).statusCode).toBe(403);
      expect((await call(who, 'DELETE', `/api/gifts/admin/delete?id=${bought.id}`)).statusCode).toBe(403);
      expect((await call(who, 'GET', '/api/gifts/admin/list?limit=abc')).statusCode).toBe(403);
    }
    const bad = await call(admin, 'GET', '/api/gifts/admin/list?status=lost');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('status');
    const [row] = await sql()`select count(*)::int as n from gifts where id = ${bought.id}`;
    expect(row!['n']).toBe(1);
  });
});

describe('GET /api/gifts/list', () => {
  it('answers the spec fields of the caller’s gifts, newest first', async () => {
    const buyer = await signUp(t.app);
    const a = await buyGift(t.app, sql(), buyer, { recipientName: 'First' });
    const b = await buyGift(t.app, sql(), buyer, { recipientName: 'Second' });
    const res = await call(buyer, 'GET', '/api/gifts/list');
    expect(res.statusCode).toBe(200);
    const gifts = res.json().gifts;
    expect(gifts.map((g: { id: string }) => g.id)).toEqual([b.id, a.id]);
    for (const g of gifts) {
      expect(g).toEqual(expect.objectContaining({ id: expect.any(String), recipient_name: expect.any(String), recipient_email: 'rose@example.test', status: 'pending', created_at: expect.stringMatching(/Z$/) }));
    }
  });

  it('reads delivery back from the email queue: sent once the worker sent it', async () => {
    const buyer = await signUp(t.app);
    const g = await buyGift(t.app, sql(), buyer);
    await sql()`update email_send_queue set status = 'sent', sent_at = now() where idempotency_key = ${`gift:${g.id}:1`}`;
    expect((await call(buyer, 'GET', `/api/gifts/${g.id}`)).json().gift.delivery_status).toBe('sent');
  });
});

describe('DELETE /api/gifts/delete', () => {
  it('cancels a pending gift: refunded invoice voided, email stopped, code dead, gone from the list', async () => {
    const buyer = await signUp(t.app);
    const g = await buyGift(t.app, sql(), buyer);
    const res = await call(buyer, 'DELETE', `/api/gifts/delete?id=${g.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, id: g.id, status: 'cancelled' });
    expect((await sql()`select status, cancelled_at is not null as stamped from gifts where id = ${g.id}`)[0]).toEqual({ status: 'cancelled', stamped: true });
    expect((await sql()`select status from invoices where id = ${g.invoiceId}`)[0]!['status']).toBe('void');
    expect((await sql()`select status from email_send_queue where idempotency_key = ${`gift:${g.id}:1`}`)[0]!['status']).toBe('cancelled');
    expect((await call(buyer, 'GET', '/api/gifts/list')).json().gifts).toEqual([]);
    expect((await call(buyer, 'GET', `/api/gifts/${g.id}`)).statusCode).toBe(404);
    const someone = await signUp(t.app);
    expect((await redeem(t.app, someone, g.code)).statusCode).toBe(404);
  });

  it('refuses a redeemed gift with 409 and a missing id with 400 naming id, changing nothing', async () => {
    const buyer = await signUp(t.app);
    const g = await buyGift(t.app, sql(), buyer);
    expect((await redeem(t.app, await signUp(t.app), g.code)).statusCode).toBe(200);
    const before = await snapshot(sql());
    expect((await call(buyer, 'DELETE', `/api/gifts/delete?id=${g.id}`)).statusCode).toBe(409);
    const missing = await call(buyer, 'DELETE', '/api/gifts/delete');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toContain('id');
    expect(await snapshot(sql())).toEqual(before);
  });
});

describe('failed deliveries: errors, retry, dismiss', () => {
  it('lists a failed email, sends it again with a new code, and only the new code works', async () => {
    const buyer = await signUp(t.app);
    const g = await buyGift(t.app, sql(), buyer);
    // Not failed yet: nothing to retry.
    expect((await call(buyer, 'POST', '/api/gifts/retry', { giftId: g.id })).statusCode).toBe(409);
    await failEmail(g.id);
    const errors = (await call(buyer, 'GET', '/api/gifts/errors')).json().errors;
    expect(errors).toEqual([expect.objectContaining({ gift_id: g.id, recipient_email: 'rose@example.test', error: 'The email could not be delivered', attempts: 1 })]);

    const res = await call(buyer, 'POST', '/api/gifts/retry', { giftId: g.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().gift).toMatchObject({ delivery_status: 'pending', delivery_attempts: 2, delivery_error: null });
    const newCode = await codeFromEmail(sql(), g.id, 2);
    expect(newCode).not.toBe(g.code);
    expect((await call(buyer, 'GET', '/api/gifts/errors')).json().errors).toEqual([]);
    const someone = await signUp(t.app);
    expect((await redeem(t.app, someone, g.code)).statusCode).toBe(404);
    expect((await redeem(t.app, someone, newCode)).statusCode).toBe(200);
  });

  it('dismisses one notice or all of them', async () => {
    const buyer = await signUp(t.app);
    const a = await buyGift(t.app, sql(), buyer);
    const b = await buyGift(t.app, sql(), buyer);
    await failEmail(a.id);
    await failEmail(b.id);
    expect((await call(buyer, 'GET', '/api/gifts/errors')).json().errors).toHaveLength(2);
    expect((await call(buyer, 'POST', '/api/gifts/errors/dismiss', { giftId: a.id })).json()).toEqual({ success: true, dismissed: 1 });
    expect((await call(buyer, 'GET', '/api/gifts/errors')).json().errors.map((e: { gift_id: string }) => e.gift_id)).toEqual([b.id]);
    expect((await call(buyer, 'POST', '/api/gifts/errors/dismiss')).json()).toEqual({ success: true, dismissed: 1 });
    expect((await call(buyer, 'GET', '/api/gifts/errors')).json().errors).toEqual([]);
  });

  it('refuses a retry body without giftId with 400 naming it', async () => {
    const buyer = await signUp(t.app);
    const res = await call(buyer, 'POST', '/api/gifts/retry', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('giftId');
  });
});

describe('admin', () => {
  it('lists every gift with its raw status and deletes one for good', async () => {
    const buyer = await signUp(t.app);
    const g = await buyGift(t.app, sql(), buyer);
    const list = await call(admin, 'GET', '/api/gifts/admin/list?limit=200');
    expect(list.statusCode).toBe(200);
    const found = list.json().gifts.find((x: { id: string }) => x.id === g.id);
    expect(found).toMatchObject({ user_id: buyer.userId, stored_status: 'pending', status: 'pending' });
    expect(list.json().total).toBeGreaterThanOrEqual(1);

    const del = await call(admin, 'DELETE', `/api/gifts/admin/delete?id=${g.id}`);
    expect(del.json()).toEqual({ success: true, id: g.id });
    expect((await sql()`select count(*)::int as n from gifts where id = ${g.id}`)[0]!['n']).toBe(0);
    expect((await sql()`select status from email_send_queue where idempotency_key = ${`gift:${g.id}:1`}`)[0]!['status']).toBe('cancelled');
    expect((await call(admin, 'DELETE', `/api/gifts/admin/delete?id=${g.id}`)).statusCode).toBe(404);
  });
});

describe('invoices', () => {
  it('lists the caller’s invoices and opens one; anyone else gets 404', async () => {
    const buyer = await signUp(t.app);
    const g = await buyGift(t.app, sql(), buyer, { planId: 'starter-6m' });
    const list = await call(buyer, 'GET', '/api/invoices');
    expect(list.statusCode).toBe(200);
    expect(list.json().invoices).toEqual([
      expect.objectContaining({ id: g.invoiceId, status: 'paid', amount_cents: 999 * 6, currency: 'usd', number: `GIFT-${g.id}`, paid_at: expect.any(String) }),
    ]);
    const one = await call(buyer, 'GET', `/api/invoices/${g.invoiceId}`);
    expect(one.json().invoice.line_items).toEqual([{ description: expect.stringContaining('starter plan, 6 months'), quantity: 6, unitAmountCents: 999, amountCents: 5994 }]);
    for (const name of ['contributor', 'viewer', 'stranger'] as const) {
      const res = await call(actors[name], 'GET', `/api/invoices/${g.invoiceId}`);
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json())).toEqual(['error']);
      expect((await call(actors[name], 'GET', '/api/invoices')).json().invoices.map((i: { id: string }) => i.id)).not.toContain(g.invoiceId);
    }
  });
});
