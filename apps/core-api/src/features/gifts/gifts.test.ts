// Gifts end to end (spec 000 Gifts, CONTRACTS §9): purchase pays through the offline billing adapter,
// writes the gift and its invoice and queues the email in one transaction; redeem works once, within
// validity, under a row lock; refusals name the field and change nothing; codes never reach a log.
import { createHash } from 'node:crypto';
import { logCapture, testEnv } from '@story/testing';
import type { App } from '@story/http';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { createTestDatabase, type TestDatabase } from '@story/testing';
import { signUp, type SignedUp } from '../../test/helper';
import { endLapsedGiftTerms } from './gift-terms';
import { buyGift, codeFromEmail, giftBody, redeem, snapshot, tierOf } from './gifts.test-helper';

const APP_URL = 'https://app.example.test';
let database: TestDatabase;
let app: App;
const logs = logCapture();
let buyer: SignedUp;
let recipient: SignedUp;
beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ config: loadConfig(testEnv({ APP_URL, LOG_LEVEL: 'info' })), deps: { database, logStream: logs.stream } });
  await app.ready();
  buyer = await signUp(app);
  recipient = await signUp(app);
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

const sql = () => database.sql;
const purchase = (who: SignedUp, payload: unknown) => app.inject({ method: 'POST', url: '/api/gifts/purchase', headers: who.headers, payload: payload as object });
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

describe('POST /api/gifts/purchase', () => {
  it('records the payment, the gift, its invoice and the recipient email together', async () => {
    const res = await purchase(buyer, giftBody({ recipientEmail: 'Rose@Example.TEST' }));
    expect(res.statusCode).toBe(201);
    const { gift, invoiceId } = res.json();
    expect(gift).toMatchObject({ recipient_name: 'Grandma Rose', recipient_email: 'rose@example.test', status: 'pending', plan_id: 'family-12m', amount_cents: 1999 * 12, delivery_status: 'pending' });
    expect(Object.keys(gift).slice(0, 5)).toEqual(['id', 'recipient_name', 'recipient_email', 'status', 'created_at']);
    expect(res.body).not.toMatch(/code/i);

    const [row] = await sql()`select user_id, code_hash, payment_reference, expires_at, delivery_attempts from gifts where id = ${gift.id}`;
    expect(row).toMatchObject({ user_id: buyer.userId, delivery_attempts: 1 });
    expect(String(row!['payment_reference'])).toMatch(/^offline_pay_/);
    const code = await codeFromEmail(sql(), gift.id);
    // 128 bits in base32: 26 letters, grouped by four.
    expect(code).toMatch(/^([A-Z2-7]{4}-){6}[A-Z2-7]{2}$/);
    expect(row!['code_hash']).toBe(sha256(code.replace(/-/g, '')));
    const validFor = new Date(row!['expires_at'] as string).getTime() - Date.now();
    expect(validFor).toBeGreaterThan(360 * 86400_000);

    const [invoice] = await sql()`select user_id, number, status, amount_cents, paid_at from invoices where id = ${invoiceId}`;
    expect(invoice).toMatchObject({ user_id: buyer.userId, number: `GIFT-${gift.id}`, status: 'paid', amount_cents: 23988 });
    expect(invoice!['paid_at']).not.toBeNull();

    const [email] = await sql()`select q.to_email, q.status, q.user_id, t.name from email_send_queue q join email_templates t on t.id = q.template_id
                                where q.idempotency_key = ${`gift:${gift.id}:1`}`;
    expect(email).toEqual({ to_email: 'rose@example.test', status: 'pending', user_id: null, name: 'gift_notification' });
  });

  it('writes nothing at all when a step of the transaction fails', async () => {
    await sql()`create function refuse_gift_email() returns trigger language plpgsql as $$ begin raise exception 'queue down'; end $$`;
    await sql()`create trigger refuse_gift_email before insert on email_send_queue for each row execute function refuse_gift_email()`;
    try {
      const before = await snapshot(sql());
      const res = await purchase(buyer, giftBody());
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('queue down');
      expect(await snapshot(sql())).toEqual(before);
    } finally {
      await sql()`drop trigger refuse_gift_email on email_send_queue`;
      await sql()`drop function refuse_gift_email()`;
    }
  });

  it('records a gift whose email could not be queued as a failed delivery', async () => {
    await sql()`update email_templates set is_active = false where name = 'gift_notification'`;
    try {
      const res = await purchase(buyer, giftBody());
      expect(res.statusCode).toBe(201);
      expect(res.json().gift).toMatchObject({ delivery_status: 'failed', delivery_error: 'The gift email template is switched off' });
      const errors = await app.inject({ method: 'GET', url: '/api/gifts/errors', headers: buyer.headers });
      expect(errors.json().errors.map((e: { gift_id: string }) => e.gift_id)).toContain(res.json().gift.id);
    } finally {
      await sql()`update email_templates set is_active = true where name = 'gift_notification'`;
    }
  });

  it('never writes a code into a log line', async () => {
    const bought = await buyGift(app, sql(), buyer);
    expect((await redeem(app, recipient, bought.code)).statusCode).toBe(200);
    expect((await redeem(app, recipient, bought.code)).statusCode).toBe(409);
    const text = logs.text();
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(bought.code);
    expect(text).not.toContain(bought.code.replace(/-/g, ''));
  });

  it.each([
    ['recipientName', { recipientName: undefined }],
    ['recipientName', { recipientName: '   ' }],
    ['recipientEmail', { recipientEmail: undefined }],
    ['recipientEmail', { recipientEmail: 'not-an-email' }],
    ['planId', { planId: undefined }],
    ['planId', { planId: 'free' }],
    ['planId', { planId: 'family-7m' }],
    ['senderName', { senderName: 'x'.repeat(201) }],
  ])('refuses a bad %s with 400 naming it and writes nothing', async (field, over) => {
    const before = await snapshot(sql());
    const res = await purchase(buyer, giftBody(over));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(field);
    expect(await snapshot(sql())).toEqual(before);
  });
});

describe('POST /api/gifts/redeem', () => {
  it("upgrades the redeemer's plan for the gift's term and marks the gift redeemed", async () => {
    const someone = await signUp(app);
    const bought = await buyGift(app, sql(), buyer, { planId: 'starter-3m' });
    // Case, spaces and dashes do not matter.
    const res = await redeem(app, someone, ` ${bought.code.toLowerCase().replace(/-/g, ' ')} `);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, gift: { id: bought.id, status: 'redeemed' }, subscription: { tier: 'starter', status: 'active' } });
    expect(await tierOf(sql(), someone.userId)).toEqual({ tier: 'starter', status: 'active' });
    const [row] = await sql()`select status, redeemed_by, term_ends_at from gifts where id = ${bought.id}`;
    expect(row).toMatchObject({ status: 'redeemed', redeemed_by: someone.userId });
    const months = (new Date(row!['term_ends_at'] as string).getTime() - Date.now()) / (30.4 * 86400_000);
    expect(months).toBeGreaterThan(2.9);
    expect(months).toBeLessThan(3.1);
  });

  it('extends a running term of the same plan instead of restarting it', async () => {
    const someone = await signUp(app);
    const first = await buyGift(app, sql(), buyer, { planId: 'family-1m' });
    const second = await buyGift(app, sql(), buyer, { planId: 'family-1m' });
    const end1 = (await redeem(app, someone, first.code)).json().subscription.term_ends_at;
    const end2 = (await redeem(app, someone, second.code)).json().subscription.term_ends_at;
    const gapDays = (new Date(end2).getTime() - new Date(end1).getTime()) / 86400_000;
    expect(gapDays).toBeGreaterThanOrEqual(28);
  });

  it('refuses a second redemption with 409 naming code and changes nothing', async () => {
    const other = await signUp(app);
    const bought = await buyGift(app, sql(), buyer);
    expect((await redeem(app, recipient, bought.code)).statusCode).toBe(200);
    const before = await snapshot(sql());
    const res = await redeem(app, other, bought.code);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/code.*already been redeemed/);
    expect(await snapshot(sql())).toEqual(before);
    expect(await tierOf(sql(), other.userId)).toEqual({ tier: 'free', status: null });
  });

  it('refuses an expired code with 410 naming code and changes nothing', async () => {
    const someone = await signUp(app);
    const bought = await buyGift(app, sql(), buyer);
    await sql()`update gifts set expires_at = now() - interval '1 day' where id = ${bought.id}`;
    const before = await snapshot(sql());
    const res = await redeem(app, someone, bought.code);
    expect(res.statusCode).toBe(410);
    expect(res.json().error).toMatch(/code.*expired/);
    expect(await snapshot(sql())).toEqual(before);
    const list = await app.inject({ method: 'GET', url: '/api/gifts/list', headers: buyer.headers });
    expect(list.json().gifts.find((g: { id: string }) => g.id === bought.id).status).toBe('expired');
  });

  it.each([
    [404, 'an unknown code', 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GG'],
    [400, 'a malformed code', 'hello'],
    [400, 'a missing code', undefined],
  ])('answers %i to %s, naming code', async (status, _what, code) => {
    const before = await snapshot(sql());
    const res = await redeem(app, recipient, code);
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toContain('code');
    expect(await snapshot(sql())).toEqual(before);
  });

  it('never downgrades: a starter gift for a premium account is refused and stays unused', async () => {
    const rich = await signUp(app);
    await sql()`update profiles set subscription_tier = 'premium', subscription_status = 'active' where id = ${rich.userId}`;
    const bought = await buyGift(app, sql(), buyer, { planId: 'starter' });
    const res = await redeem(app, rich, bought.code);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toContain('code');
    expect(await tierOf(sql(), rich.userId)).toEqual({ tier: 'premium', status: 'active' });
    const [row] = await sql()`select status from gifts where id = ${bought.id}`;
    expect(row!['status']).toBe('pending');
  });

  it('lets exactly one of two concurrent redemptions of one code through', async () => {
    const a = await signUp(app);
    const b = await signUp(app);
    const bought = await buyGift(app, sql(), buyer);
    const results = await Promise.all([redeem(app, a, bought.code), redeem(app, b, bought.code)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const tiers = [await tierOf(sql(), a.userId), await tierOf(sql(), b.userId)].map((t) => t.tier).sort();
    expect(tiers).toEqual(['family', 'free']);
    const [row] = await sql()`select count(*)::int as n from gifts where id = ${bought.id} and status = 'redeemed'`;
    expect(row!['n']).toBe(1);
  });
});

describe('the end of a gift term', () => {
  it('sets the account back to free once every gift term has passed, and keeps a running one', async () => {
    const lapsed = await signUp(app);
    const running = await signUp(app);
    const g1 = await buyGift(app, sql(), buyer, { planId: 'family-1m' });
    const g2 = await buyGift(app, sql(), buyer, { planId: 'starter-1m' });
    expect((await redeem(app, lapsed, g1.code)).statusCode).toBe(200);
    expect((await redeem(app, running, g2.code)).statusCode).toBe(200);
    await sql()`update gifts set term_ends_at = now() - interval '1 minute' where id = ${g1.id}`;
    expect(await endLapsedGiftTerms(database.db)).toBeGreaterThanOrEqual(1);
    expect(await tierOf(sql(), lapsed.userId)).toEqual({ tier: 'free', status: 'cancelled' });
    expect(await tierOf(sql(), running.userId)).toEqual({ tier: 'starter', status: 'active' });
    // Idempotent: nothing more to do.
    expect(await endLapsedGiftTerms(database.db)).toBe(0);
  });
});
