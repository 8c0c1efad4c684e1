// The limits of spec 001 Limits hold with their real numbers (RATE_LIMIT_SCALE=1): admin
// APIs 100 per minute, user APIs 60, webhook APIs 1000; the next request is 429 RATE_LIMITED with
// Retry-After and the X-RateLimit headers (Reset in epoch seconds). Every route of the document announces the
// limit of its kind; a few of each kind are driven to the refusal, on one app and on two replicas sharing
// Redis (REDIS_URL), where together they allow exactly the limit.
import type { InjectOptions } from 'fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'svix';
import { limitSpec, type App } from '@story/http';
import { routeProbes, testEnv } from '@story/testing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, sessionFor, type TestContext } from '../test/helper';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const WEBHOOK_SECRET = `whsec_${Buffer.from('security-suite-webhook-secret-0123').toString('base64')}`;
const freshIp = () => { const b = randomBytes(3); return `10.${b[0]}.${b[1]}.${1 + (b[2]! % 250)}`; };

type Inject = InjectOptions & { method: string; url: string };

function webhook(ip: string): Inject {
  const payload = JSON.stringify({ type: 'email.delivered', created_at: new Date().toISOString(), data: { email_id: `none-${randomUUID()}`, to: 'a@example.test', subject: 's' } });
  const id = `msg_${randomUUID()}`;
  const at = new Date();
  return {
    method: 'POST',
    url: '/api/webhooks/email/resend',
    remoteAddress: ip,
    payload,
    headers: { 'content-type': 'application/json', 'svix-id': id, 'svix-timestamp': String(Math.floor(at.getTime() / 1000)), 'svix-signature': new Webhook(WEBHOOK_SECRET).sign(id, at, payload) },
  };
}

async function exhaust(apps: App[], max: number, request: (i: number) => Inject) {
  const statuses: number[] = [];
  let last;
  for (let i = 0; i <= max; i++) {
    last = await apps[i % apps.length]!.inject(request(i));
    statuses.push(last.statusCode);
  }
  return { statuses, last: last! };
}

function expectRefusedAt({ statuses, last }: Awaited<ReturnType<typeof exhaust>>, max: number) {
  expect(statuses.slice(0, max).filter((s) => s === 429)).toEqual([]);
  expect(statuses[max]).toBe(429);
  expect(last.json()).toEqual({ error: expect.stringMatching(/^Too many requests/), code: 'RATE_LIMITED', details: { limit: max, retryAfter: expect.any(Number) } });
  expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  expect(last.headers['x-ratelimit-remaining']).toBe('0');
}

describe('one app (RATE_LIMIT_SCALE=1)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '1', EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET });
  });
  afterAll(async () => t.close());

  it('every route announces the limit of its kind: admin 100, webhook 1000, every other 60 per minute', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const admin = await sessionFor(t, 'admin');
    const user = await sessionFor(t);
    const wrong: string[] = [];
    let announced = 0;
    for (const probe of routeProbes(doc).filter((p) => p.method === 'GET' && p.path !== '/docs')) {
      const asUser = await t.app.inject({ method: 'GET', url: probe.url, remoteAddress: freshIp(), headers: user.headers });
      const adminOnly = asUser.statusCode === 403;
      const res = adminOnly ? await t.app.inject({ method: 'GET', url: probe.url, remoteAddress: freshIp(), headers: admin.headers }) : asUser;
      const limit = res.headers['x-ratelimit-limit'];
      if (limit === undefined) continue;
      announced++;
      const expected = adminOnly ? limitSpec('email.admin').max : limitSpec('email.user').max;
      if (Number(limit) !== expected) wrong.push(`GET ${probe.path}: ${limit}, expected ${expected} (${adminOnly ? 'admin' : 'user'} API)`);
    }
    expect(wrong).toEqual([]);
    expect(announced).toBeGreaterThan(40);
    const hook = await t.app.inject(webhook(freshIp()));
    expect(hook.statusCode).toBe(200);
    expect(hook.headers['x-ratelimit-limit']).toBe('1000');
    const reset = Number(hook.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
  });

  it.each([
    ['admin', 'GET /api/admin/email/templates', '/api/admin/email/templates'],
    ['admin', 'GET /api/admin/stats/users', '/api/admin/stats/users'],
    ['admin', 'GET /api/feature-flags', '/api/feature-flags'],
    ['admin', 'GET /api/admin/waitlist', '/api/admin/waitlist'],
    ['user', 'GET /api/user/emails/received', '/api/user/emails/received'],
    ['user', 'GET /api/auth/session', '/api/auth/session'],
  ] as const)('%s API %s: the limit passes, the next is 429 RATE_LIMITED with Retry-After', async (kind, _name, url) => {
    const who = await sessionFor(t, kind === 'admin' ? 'admin' : 'user');
    const max = limitSpec(kind === 'admin' ? 'email.admin' : 'email.user').max;
    expectRefusedAt(await exhaust([t.app], max, () => ({ method: 'GET', url, remoteAddress: freshIp(), headers: who.headers })), max);
    // The limit is per caller: another account is still served.
    const other = await sessionFor(t, kind === 'admin' ? 'admin' : 'user');
    expect((await t.app.inject({ method: 'GET', url, headers: other.headers })).statusCode).toBe(200);
  });

  it('webhook API: 1000 per minute per sender address, the 1001st is 429 and records nothing', async () => {
    const ip = freshIp();
    const events = async () => Number((await t.database.sql`select count(*)::int as n from email_delivery_events`)[0]!['n']);
    const before = await events();
    const result = await exhaust([t.app], 1000, () => webhook(ip));
    expect(result.statuses.slice(0, 1000).every((s) => s === 200)).toBe(true);
    expectRefusedAt(result, 1000);
    expect((await events()) - before).toBe(1000);
  });
});

describe('two replicas sharing Redis (REDIS_URL) and the database', () => {
  let t: TestContext;
  let second: App;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '1', REDIS_URL, EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET });
    second = await buildApp({ config: loadConfig(testEnv({ RATE_LIMIT_SCALE: '1', REDIS_URL, EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET })), deps: { database: t.database } });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it.each([
    ['admin', '/api/admin/email/templates'],
    ['user', '/api/user/emails/received'],
  ] as const)('%s API %s: requests alternate between replicas and together get exactly the limit', async (kind, url) => {
    const who = await sessionFor(t, kind === 'admin' ? 'admin' : 'user');
    const max = limitSpec(kind === 'admin' ? 'email.admin' : 'email.user').max;
    expectRefusedAt(await exhaust([t.app, second], max, () => ({ method: 'GET', url, headers: who.headers })), max);
    expect((await t.app.inject({ method: 'GET', url, headers: who.headers })).statusCode).toBe(429);
    expect((await second.inject({ method: 'GET', url, headers: who.headers })).statusCode).toBe(429);
  });

  it('webhook API: 1000 across both replicas for one sender', async () => {
    const ip = freshIp();
    expectRefusedAt(await exhaust([t.app, second], 1000, () => webhook(ip)), 1000);
  });
});
