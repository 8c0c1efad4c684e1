// CONTRACTS §9: a gift upgrades nobody without a payment the processor confirmed; the offline recorder
// (every charge "paid") is refused in production unless BILLING_OFFLINE_ACKNOWLEDGED=true; purchase, retry and
// redeem are limited per account, whatever address the requests come from.
import { createBilling, createOfflineBilling, type Billing } from '@story/providers';
import { ConfigError } from '@story/config';
import { testEnv } from '@story/testing';
import { loadConfig } from '../../config';
import { buildTestApp, PASSWORD, signUp, uniqueEmail, type SignedUp, type TestContext } from '../../test/helper';
import { buyGift, giftBody, redeem, snapshot, tierOf } from './gifts.test-helper';

const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'production-jwt-secret-0123456789-abcdefghijkl',
  UPLOAD_TICKET_SECRET: 'production-upload-secret-0123456789-abcdefgh',
  PUBLIC_BASE_URL: 'https://api.example.test',
  PUBLIC_API_URL: 'https://api.example.test',
  APP_URL: 'https://app.example.test',
};

describe('offline billing in production', () => {
  it('stops core-api at start with one line naming BILLING_OFFLINE_ACKNOWLEDGED', () => {
    let thrown: unknown;
    try {
      loadConfig(testEnv(PRODUCTION));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as Error).message;
    expect(message).toMatch(/BILLING_OFFLINE_ACKNOWLEDGED/);
    expect(message).not.toContain('\n');
  });

  it('starts when the operator acknowledges it, and outside production without a word', () => {
    expect(loadConfig(testEnv({ ...PRODUCTION, BILLING_OFFLINE_ACKNOWLEDGED: 'true' })).providers.BILLING_OFFLINE_ACKNOWLEDGED).toBe(true);
    expect(() => loadConfig(testEnv({ ...PRODUCTION, BILLING_OFFLINE_ACKNOWLEDGED: 'false' }))).toThrow(/BILLING_OFFLINE_ACKNOWLEDGED/);
    expect(loadConfig(testEnv({})).providers.BILLING_PROVIDER).toBe('offline');
  });

  it('the offline adapter itself takes no charge and confirms no payment when unacknowledged in production', async () => {
    const refused = createBilling({ provider: 'offline', production: true });
    await expect(refused.charge({ customerId: 'u', amountCents: 100, currency: 'usd', description: 'x', idempotencyKey: 'k' })).rejects.toMatchObject({ kind: 'unavailable' });
    const paid = await createOfflineBilling().charge({ customerId: 'u', amountCents: 100, currency: 'usd', description: 'x', idempotencyKey: 'k' });
    expect(await refused.paymentStatus(paid.paymentReference)).toBe('unknown');
    const acknowledged = createBilling({ provider: 'offline', production: true, offlineAcknowledged: true });
    expect(await acknowledged.paymentStatus(paid.paymentReference)).toBe('paid');
    expect(await acknowledged.paymentStatus('ch_someone_else')).toBe('unknown');
  });
});

describe('redeeming needs a confirmed payment', () => {
  let t: TestContext;
  // The processor's answer for every payment, changed by the tests.
  let processorSays: Awaited<ReturnType<Billing['paymentStatus']>> = 'paid';
  let unacknowledgedProduction = false;
  beforeAll(async () => {
    const offline = createOfflineBilling();
    const refused = createBilling({ provider: 'offline', production: true });
    const billing: Billing = {
      provider: 'offline',
      charge: (r) => (unacknowledgedProduction ? refused : offline).charge(r),
      refund: (r) => offline.refund(r),
      paymentStatus: async (ref) => (unacknowledgedProduction ? refused.paymentStatus(ref) : processorSays === 'paid' ? offline.paymentStatus(ref) : processorSays),
    };
    t = await buildTestApp({}, { providers: () => ({ billing }) });
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    processorSays = 'paid';
    unacknowledgedProduction = false;
  });

  it.each(['open', 'failed', 'refunded', 'unknown'] as const)('a gift whose payment is %s upgrades nobody and stays unused', async (status) => {
    const buyer = await signUp(t.app);
    const gift = await buyGift(t.app, t.database.sql, buyer, { planId: 'premium-12m' });
    processorSays = status;
    const before = await snapshot(t.database.sql);
    const res = await redeem(t.app, buyer, gift.code);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/payment has not been confirmed/);
    expect(await snapshot(t.database.sql)).toEqual(before);
    expect((await tierOf(t.database.sql, buyer.userId)).tier).toBe('free');
    // Once the processor confirms it, the same code works.
    processorSays = 'paid';
    expect((await redeem(t.app, buyer, gift.code)).statusCode).toBe(200);
    expect((await tierOf(t.database.sql, buyer.userId)).tier).toBe('premium');
  });

  it('a self-purchase through offline billing in an unacknowledged production setup is refused and upgrades nothing', async () => {
    const buyer = await signUp(t.app);
    // A code bought while offline payments were allowed (a development database moved to production, say).
    const earlier = await buyGift(t.app, t.database.sql, buyer, { planId: 'family-12m', recipientEmail: buyer.email });
    unacknowledgedProduction = true;
    const before = await snapshot(t.database.sql);
    const bought = await t.app.inject({ method: 'POST', url: '/api/gifts/purchase', headers: buyer.headers, payload: giftBody({ recipientEmail: buyer.email, planId: 'premium-12m' }) });
    expect(bought.statusCode).toBe(503);
    expect(bought.json()).toEqual({ error: 'Payments are not available right now; nothing was charged' });
    const redeemed = await redeem(t.app, buyer, earlier.code);
    expect(redeemed.statusCode).toBe(409);
    expect(await snapshot(t.database.sql)).toEqual(before);
    expect((await tierOf(t.database.sql, buyer.userId)).tier).toBe('free');
  });
});

describe('gift limits are per account', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '1' });
  });
  afterAll(async () => t.close());

  let n = 0;
  // Sign-up itself is limited per address (5 a minute): each account signs up from an address of its own.
  const account = async (): Promise<SignedUp> => {
    const email = uniqueEmail('gift-limit');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', remoteAddress: `10.8.${++n}.1`, payload: { email, password: PASSWORD } });
    const body = res.json();
    return { userId: body.user.id, email, accessToken: body.session.access_token, refreshToken: body.session.refresh_token, headers: { authorization: `Bearer ${body.session.access_token}` } };
  };

  it.each([
    // A real purchase each time (the limiter runs after the body is validated).
    ['/api/gifts/purchase', giftBody()],
    ['/api/gifts/redeem', { code: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GG' }],
    ['/api/gifts/retry', { giftId: '00000000-0000-4000-8000-000000000000' }],
  ])('%s: 10 an hour for one account from any address, the 11th is 429; another account is not affected', async (url, payload) => {
    const who = await account();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({ method: 'POST', url, headers: who.headers, remoteAddress: `10.9.${i}.${i + 1}`, payload });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10)).not.toContain(429);
    expect(statuses[10]).toBe(429);
    const other = await account();
    expect((await t.app.inject({ method: 'POST', url, headers: other.headers, remoteAddress: '10.9.0.1', payload })).statusCode).not.toBe(429);
  });
});
