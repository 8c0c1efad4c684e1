import { createTestDatabase, type TestDatabase } from '@story/testing';
import { checkDeliverable } from './preferences';
import { applyUnsubscribe, createUnsubscribeTokens, currentUnsubscribeVersion, unsubscribeHeaders } from './unsubscribe';
import { createAccount } from './test/fixtures';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

const tokens = createUnsubscribeTokens('test-secret');
const payload = { userId: '0b6f7c1e-1111-4222-8333-444455556666', email: 'a@example.test', category: 'reminder', version: 1 };

describe('tokens', () => {
  it('round-trips a payload and is URL-safe', () => {
    const token = tokens.sign(payload);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(tokens.verify(token)).toEqual(payload);
  });
  it('refuses tampered payloads, signatures, other secrets and junk', () => {
    const token = tokens.sign(payload);
    const [body, sig] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ u: payload.userId, e: payload.email, c: 'all', v: 1 })).toString('base64url');
    expect(tokens.verify(`${forged}.${sig}`)).toBeNull();
    expect(tokens.verify(`${body}.${sig.slice(0, -2)}AA`)).toBeNull();
    expect(tokens.verify(`${body}.`)).toBeNull();
    expect(tokens.verify(createUnsubscribeTokens('other').sign(payload))).toBeNull();
    expect(tokens.verify('garbage')).toBeNull();
    expect(tokens.verify(`${token}.x`)).toBeNull();
  });
  it('builds RFC 8058 headers', () => {
    expect(unsubscribeHeaders('https://app.example.test/', 'ab.c-d')).toEqual({
      'List-Unsubscribe': '<https://app.example.test/api/email/unsubscribe?token=ab.c-d>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});

describe('applyUnsubscribe', () => {
  it('adds the category once and then blocks it', async () => {
    const u = await createAccount(t);
    const p = tokens.verify(tokens.sign({ userId: u.id, email: u.email, category: 'reminder', version: await currentUnsubscribeVersion(t.db, u.id) }))!;
    expect(await applyUnsubscribe(t.db, p)).toBe(true);
    expect(await applyUnsubscribe(t.db, p)).toBe(true);
    const [row] = await t.sql`select unsubscribed_categories, unsubscribed_all from user_email_preferences where user_id = ${u.id}`;
    expect(row).toEqual({ unsubscribed_categories: ['reminder'], unsubscribed_all: false });
    expect(await checkDeliverable(t.db, { userId: u.id, email: u.email, category: 'reminder' })).toMatchObject({ allowed: false });
  });
  it("'all' sets unsubscribed_all", async () => {
    const u = await createAccount(t);
    expect(await applyUnsubscribe(t.db, { userId: u.id, email: u.email, category: 'all', version: 1 })).toBe(true);
    const [row] = await t.sql`select unsubscribed_all from user_email_preferences where user_id = ${u.id}`;
    expect(row!['unsubscribed_all']).toBe(true);
  });
  it('refuses links signed with an old version, transactional categories and unknown accounts', async () => {
    const u = await createAccount(t);
    await t.sql`insert into user_email_preferences (user_id, unsubscribe_token_version) values (${u.id}, 2)`;
    expect(await applyUnsubscribe(t.db, { userId: u.id, email: u.email, category: 'reminder', version: 1 })).toBe(false);
    expect(await applyUnsubscribe(t.db, { userId: u.id, email: u.email, category: 'transactional', version: 2 })).toBe(false);
    expect(await applyUnsubscribe(t.db, { userId: null, email: u.email, category: 'reminder', version: 2 })).toBe(false);
    expect(await applyUnsubscribe(t.db, { ...payload })).toBe(false);
    const [row] = await t.sql`select unsubscribed_categories from user_email_preferences where user_id = ${u.id}`;
    expect(row!['unsubscribed_categories']).toEqual([]);
    expect(await applyUnsubscribe(t.db, { userId: u.id, email: u.email, category: 'marketing', version: 2 })).toBe(true);
  });
});
