// Every rate limit of spec 000 Limits (and the limits CONTRACTS §7 and §10 add) holds on
// every route that names it, with the real numbers (RATE_LIMIT_SCALE=1): the limit's requests pass the
// limiter, the next one is 429 in the core shape {error} with Retry-After. A limit is counted per route
// (each route has its own window), per caller or per address as the table says. Window limits hold across
// two replicas that share Redis (REDIS_URL), and the persisted ones through the shared database.
// The table's numbers themselves: libs/http/src/limits/limit-table.test.ts.
import type { InjectOptions } from 'fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { limitSpec, type App, type LimitName } from '@story/http';
import { routeProbes, testEnv } from '@story/testing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { multipart } from '../test/conversations-factories';
import { newFamilyGroup, setTier } from '../test/family-factories';
import { buildTestApp, PASSWORD, uniqueEmail, type SignedUp, type TestContext } from '../test/helper';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A fresh address per check, so no window (in-process or in Redis, from an earlier run) is shared. */
const freshIp = () => { const b = randomBytes(3); return `10.${b[0]}.${b[1]}.${1 + (b[2]! % 250)}`; };

type Inject = InjectOptions & { method: string; url: string };

async function signUpFrom(app: App, ip = freshIp()): Promise<SignedUp> {
  const email = uniqueEmail('limits');
  const res = await app.inject({ method: 'POST', url: '/api/auth/signup', remoteAddress: ip, payload: { email, password: PASSWORD } });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { userId: body.user.id, email, accessToken: body.session.access_token, refreshToken: body.session.refresh_token, headers: { authorization: `Bearer ${body.session.access_token}` } };
}

/** Sends `max + 1` requests; returns the statuses and the last answer. */
async function exhaust(apps: App[], max: number, request: (i: number) => Inject) {
  const statuses: number[] = [];
  let last;
  for (let i = 0; i <= max; i++) {
    last = await apps[i % apps.length]!.inject(request(i));
    statuses.push(last.statusCode);
  }
  return { statuses, last: last! };
}

function expectRefusedAt(result: Awaited<ReturnType<typeof exhaust>>, max: number) {
  const { statuses, last } = result;
  // Every request within the limit reached the route (whatever it answered), the next one is refused.
  expect(statuses.slice(0, max).filter((s) => s === 429)).toEqual([]);
  expect(statuses[max]).toBe(429);
  expect(Object.keys(last.json())).toEqual(['error']);
  expect(last.json().error).toMatch(/^Too many requests|per hour|Try again/);
  expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
}

/** A multipart request without its file: the route answers 400 after the limiter has counted it. */
function withoutFile(url: string, who: SignedUp, ip: string): Inject {
  const body = multipart([{ name: 'title', value: 'no file here' }]);
  return { method: 'POST', url, remoteAddress: ip, headers: { ...who.headers, ...body.headers }, payload: body.payload };
}

interface RouteCase {
  limit: LimitName;
  /** The request; `who` is a fresh account (ignored by public routes), `ip` a fresh address. */
  request: (who: SignedUp, ip: string, i: number) => Inject;
}

const routes: [string, RouteCase][] = [
  // spec 000: authentication, 5 per minute per address (the sign-up of a fresh account each time).
  ['POST /api/auth/signup', { limit: 'core.auth', request: (_w, ip) => ({ method: 'POST', url: '/api/auth/signup', remoteAddress: ip, payload: { email: uniqueEmail('rl'), password: PASSWORD } }) }],
  ['POST /api/auth/signin', { limit: 'core.auth', request: (w, ip) => ({ method: 'POST', url: '/api/auth/signin', remoteAddress: ip, payload: { email: w.email, password: 'wrong password 1' } }) }],
  ['POST /api/auth/refresh', { limit: 'core.auth', request: (_w, ip) => ({ method: 'POST', url: '/api/auth/refresh', remoteAddress: ip, payload: { refresh_token: randomBytes(32).toString('base64url') } }) }],
  ['POST /api/auth/verify-email', { limit: 'core.auth', request: (_w, ip) => ({ method: 'POST', url: '/api/auth/verify-email', remoteAddress: ip, payload: { token: randomBytes(32).toString('base64url') } }) }],
  ['POST /api/auth/magic-link/verify', { limit: 'core.auth', request: (_w, ip) => ({ method: 'POST', url: '/api/auth/magic-link/verify', remoteAddress: ip, payload: { token: randomBytes(32).toString('base64url') } }) }],
  [
    'POST /api/auth/signup-with-invitation',
    { limit: 'core.auth', request: (_w, ip) => ({ method: 'POST', url: '/api/auth/signup-with-invitation', remoteAddress: ip, payload: { email: uniqueEmail('inv'), password: PASSWORD, token: randomBytes(32).toString('base64url') } }) },
  ],
  // CONTRACTS §10: magic-link requests, 20 per hour per address (a different email each time).
  ['POST /api/auth/magic-link', { limit: 'core.magic-link.ip', request: (_w, ip) => ({ method: 'POST', url: '/api/auth/magic-link', remoteAddress: ip, payload: { email: uniqueEmail('ml') } }) }],
  // CONTRACTS §10: social sign-in, 30 per minute per address (the project's figure).
  ['GET /api/auth/oauth/google/start', { limit: 'core.oauth', request: (_w, ip) => ({ method: 'GET', url: '/api/auth/oauth/google/start', remoteAddress: ip }) }],
  ['GET /api/auth/oauth/google/callback', { limit: 'core.oauth', request: (_w, ip) => ({ method: 'GET', url: '/api/auth/oauth/google/callback?state=x&code=y', remoteAddress: ip }) }],
  ['POST /api/auth/oauth/exchange', { limit: 'core.oauth', request: (_w, ip) => ({ method: 'POST', url: '/api/auth/oauth/exchange', remoteAddress: ip, payload: { code: randomBytes(32).toString('base64url') } }) }],
  // spec 000: story creation, 10 per minute per caller.
  ['POST /api/stories', { limit: 'core.stories', request: (w, ip, i) => ({ method: 'POST', url: '/api/stories', remoteAddress: ip, headers: w.headers, payload: { title: `Story ${i}` } }) }],
  [
    'POST /api/stories/convert',
    { limit: 'core.stories', request: (w, ip) => ({ method: 'POST', url: '/api/stories/convert', remoteAddress: ip, headers: w.headers, payload: { sourceType: 'recording', sourceId: randomUUID(), title: 'T' } }) },
  ],
  ['POST /api/imports/[id]/convert', { limit: 'core.stories', request: (w, ip) => ({ method: 'POST', url: `/api/imports/${randomUUID()}/convert`, remoteAddress: ip, headers: w.headers, payload: {} }) }],
  // spec 000: file upload, 20 per hour per caller (multipart routes get a body without the file: 400 after the limiter).
  ['POST /api/recordings', { limit: 'core.uploads', request: (w, ip) => withoutFile('/api/recordings', w, ip) }],
  ['POST /api/transcribe', { limit: 'core.uploads', request: (w, ip) => withoutFile('/api/transcribe', w, ip) }],
  [
    'POST /api/conversations/upload-audio',
    { limit: 'core.uploads', request: (w, ip) => withoutFile('/api/conversations/upload-audio', w, ip) },
  ],
  ['POST /api/upload/local', { limit: 'core.uploads', request: (w, ip) => withoutFile('/api/upload/local', w, ip) }],
  ['POST /api/imports/upload', { limit: 'core.uploads', request: (w, ip) => withoutFile('/api/imports/upload', w, ip) }],
  ['POST /api/imports/paste', { limit: 'core.uploads', request: (w, ip, i) => ({ method: 'POST', url: '/api/imports/paste', remoteAddress: ip, headers: w.headers, payload: { content: `Pasted text ${i}` } }) }],
  ['POST /api/imports', { limit: 'core.uploads', request: (w, ip, i) => ({ method: 'POST', url: '/api/imports', remoteAddress: ip, headers: w.headers, payload: { sourceType: 'paste', content: `Pasted ${i}` } }) }],
  ['POST /api/imports/url', { limit: 'core.uploads', request: (w, ip) => ({ method: 'POST', url: '/api/imports/url', remoteAddress: ip, headers: w.headers, payload: { url: 'http://127.0.0.1/page' } }) }],
  [
    'POST /api/uploads/presign',
    { limit: 'core.uploads', request: (w, ip) => ({ method: 'POST', url: '/api/uploads/presign', remoteAddress: ip, headers: w.headers, payload: { fileName: 'a.mp3', contentType: 'audio/mpeg', size: 9 * 1024 * 1024 } }) },
  ],
  // Registering moves no bytes (they went straight to storage under a presign, which is the counted upload):
  // the general limit.
  ['POST /api/uploads/register', { limit: 'core.general', request: (w, ip) => ({ method: 'POST', url: '/api/uploads/register', remoteAddress: ip, headers: w.headers, payload: { key: 'nope', ticket: 'nope' } }) }],
  ['POST /api/upload-url', { limit: 'core.uploads', request: (w, ip) => ({ method: 'POST', url: '/api/upload-url', remoteAddress: ip, headers: w.headers, payload: { fileName: 'a.jpg', fileType: 'image/jpeg', folder: 'photos' } }) }],
  // core-api: public lookups by token, per caller (address when signed out).
  ['GET /api/family/invitations/[token]/public', { limit: 'core.invitation-preview', request: (_w, ip) => ({ method: 'GET', url: `/api/family/invitations/${randomBytes(32).toString('base64url')}/public`, remoteAddress: ip }) }],
  ['GET /api/share/[token]', { limit: 'core.share', request: (_w, ip) => ({ method: 'GET', url: `/api/share/${randomBytes(24).toString('base64url')}`, remoteAddress: ip }) }],
  ['GET /api/share/[token]/audio', { limit: 'core.share', request: (_w, ip) => ({ method: 'GET', url: `/api/share/${randomBytes(24).toString('base64url')}/audio`, remoteAddress: ip }) }],
  // CONTRACTS §9: gifts move money and plans, 10 per hour per account each (real purchases: the limiter runs after validation).
  [
    'POST /api/gifts/purchase',
    {
      limit: 'core.gifts.purchase',
      request: (w, ip) => ({ method: 'POST', url: '/api/gifts/purchase', remoteAddress: ip, headers: w.headers, payload: { recipientName: 'Rose', recipientEmail: 'rose@example.test', planId: 'family' } }),
    },
  ],
  ['POST /api/gifts/retry', { limit: 'core.gifts.retry', request: (w, ip) => ({ method: 'POST', url: '/api/gifts/retry', remoteAddress: ip, headers: w.headers, payload: { giftId: randomUUID() } }) }],
  ['POST /api/gifts/redeem', { limit: 'core.gifts.redeem', request: (w, ip) => ({ method: 'POST', url: '/api/gifts/redeem', remoteAddress: ip, headers: w.headers, payload: { code: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GG' } }) }],
  // spec 000: general API, 100 per minute per caller, on every route without a limit of its own.
  ['GET /api/campaigns', { limit: 'core.general', request: (w, ip) => ({ method: 'GET', url: '/api/campaigns', remoteAddress: ip, headers: w.headers }) }],
  ['GET /api/stories', { limit: 'core.general', request: (w, ip) => ({ method: 'GET', url: '/api/stories', remoteAddress: ip, headers: w.headers }) }],
];

describe('window limits of spec 000, one app (RATE_LIMIT_SCALE=1)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '1' });
  });
  afterAll(async () => t.close());

  it.each(routes)('%s: the limit passes, the next request is 429 with Retry-After', async (_name, { limit, request }) => {
    const max = limitSpec(limit).max;
    const who = await signUpFrom(t.app);
    const ip = freshIp();
    expectRefusedAt(await exhaust([t.app], max, (i) => request(who, ip, i)), max);
    // Another caller (or address) still has a window of their own.
    const other = await signUpFrom(t.app);
    expect((await t.app.inject(request(other, freshIp(), 0))).statusCode).not.toBe(429);
  });

  it('every GET route of the document announces its limit: its own named one, else the general 100 a minute', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const own: Record<string, LimitName> = {
      '/api/share/{token}': 'core.share',
      '/api/share/{token}/audio': 'core.share',
      '/api/family/invitations/{token}/public': 'core.invitation-preview',
      '/api/auth/oauth/{provider}/start': 'core.oauth',
      '/api/auth/oauth/{provider}/callback': 'core.oauth',
    };
    const probes = routeProbes(doc).filter((p) => p.method === 'GET' && p.path !== '/docs' && p.path !== '/openapi.json' && p.path !== '/health');
    const wrong: string[] = [];
    let announced = 0;
    let who = await signUpFrom(t.app);
    for (const [i, probe] of probes.entries()) {
      if (i % 40 === 39) who = await signUpFrom(t.app); // stay inside one caller's general window
      const res = await t.app.inject({ method: 'GET', url: probe.url, remoteAddress: freshIp(), headers: who.headers });
      const limit = res.headers['x-ratelimit-limit'];
      if (limit === undefined) continue;
      announced++;
      const expected = limitSpec(own[probe.path] ?? 'core.general').max;
      if (Number(limit) !== expected) wrong.push(`GET ${probe.path}: ${limit}, expected ${expected}`);
    }
    expect(wrong).toEqual([]);
    expect(announced).toBeGreaterThan(80);
    // The named GET routes were among them.
    for (const path of Object.keys(own)) expect(probes.some((p) => p.path === path)).toBe(true);
  });

  it('announces the window in X-RateLimit-Limit, -Remaining and -Reset (epoch seconds)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', remoteAddress: freshIp(), payload: { email: uniqueEmail(), password: 'whatever 1' } });
    expect(res.headers['x-ratelimit-limit']).toBe('5');
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
    const reset = Number(res.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
  });

  it('stores nothing for the refused story creation: exactly 10 stories exist', async () => {
    const who = await signUpFrom(t.app);
    const ip = freshIp();
    await exhaust([t.app], 10, (i) => ({ method: 'POST', url: '/api/stories', remoteAddress: ip, headers: who.headers, payload: { title: `S${i}` } }));
    expect(await t.database.sql`select 1 from stories where user_id = ${who.userId}`).toHaveLength(10);
  });
});

describe('limits counted over stored rows (PostgreSQL), one app', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '1' });
  });
  afterAll(async () => t.close());

  it('family invites: 5 per hour per account, the 6th is 429 with the sentence and Retry-After, and not stored', async () => {
    const owner = await signUpFrom(t.app);
    await setTier(t.database.sql, owner.userId, 'family'); // free allows 3 members: the tier must not refuse first
    const group = await newFamilyGroup(t.database.sql, { ownerId: owner.userId });
    const { statuses, last } = await exhaust([t.app], 5, () => ({
      method: 'POST',
      url: '/api/family/invitations',
      remoteAddress: freshIp(),
      headers: owner.headers,
      payload: { familyGroupId: group.id, email: uniqueEmail('invitee'), role: 'family_viewer' },
    }));
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect(last.json()).toEqual({ error: 'You can send 5 family invitations per hour. Try again later.' });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.database.sql`select 1 from family_invitations where family_group_id = ${group.id}`).toHaveLength(5);
  });

  it('resend-verification: 3 per hour per account', async () => {
    const who = await signUpFrom(t.app);
    const { statuses, last } = await exhaust([t.app], 3, () => ({ method: 'POST', url: '/api/auth/resend-verification', remoteAddress: freshIp(), headers: who.headers }));
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last.json()).toEqual({ error: 'At most 3 verification emails per hour. Please try again later.' });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('magic-link: 5 per hour per email, whatever the address', async () => {
    const email = uniqueEmail('magic');
    const { statuses, last } = await exhaust([t.app], 5, () => ({ method: 'POST', url: '/api/auth/magic-link', remoteAddress: freshIp(), payload: { email } }));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last.json()).toEqual({ error: 'At most 5 sign-in links per hour for this address. Please try again later.' });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('two replicas sharing Redis (REDIS_URL) and the database', () => {
  let t: TestContext;
  let second: App;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '1', REDIS_URL });
    second = await buildApp({ config: loadConfig(testEnv({ RATE_LIMIT_SCALE: '1', REDIS_URL })), deps: { database: t.database } });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it.each([
    ['core.auth', 'POST /api/auth/signin'],
    ['core.stories', 'POST /api/stories'],
    ['core.uploads', 'POST /api/imports/paste'],
    ['core.share', 'GET /api/share/[token]'],
    ['core.general', 'GET /api/campaigns'],
  ] as const)('%s on %s: requests alternate between the replicas, and together they get exactly the limit', async (limit, name) => {
    const { request } = routes.find(([n]) => n === name)![1];
    const max = limitSpec(limit).max;
    const who = await signUpFrom(t.app);
    const ip = freshIp();
    expectRefusedAt(await exhaust([t.app, second], max, (i) => request(who, ip, i)), max);
    // Both replicas now refuse this caller.
    expect((await t.app.inject(request(who, ip, 0))).statusCode).toBe(429);
    expect((await second.inject(request(who, ip, 0))).statusCode).toBe(429);
  });

  it('a counted limit (family invites) holds across replicas through the shared database', async () => {
    const owner = await signUpFrom(t.app);
    await setTier(t.database.sql, owner.userId, 'family'); // free allows 3 members: the tier must not refuse first
    const group = await newFamilyGroup(t.database.sql, { ownerId: owner.userId });
    const { statuses } = await exhaust([t.app, second], 5, () => ({
      method: 'POST',
      url: '/api/family/invitations',
      remoteAddress: freshIp(),
      headers: owner.headers,
      payload: { familyGroupId: group.id, email: uniqueEmail('invitee'), role: 'family_viewer' },
    }));
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it('without REDIS_URL each replica counts alone (why the shared store is needed)', async () => {
    const a = await buildApp({ config: loadConfig(testEnv({ RATE_LIMIT_SCALE: '1' })), deps: { database: t.database } });
    const b = await buildApp({ config: loadConfig(testEnv({ RATE_LIMIT_SCALE: '1' })), deps: { database: t.database } });
    try {
      const ip = freshIp();
      const signin = () => ({ method: 'POST' as const, url: '/api/auth/signin', remoteAddress: ip, payload: { email: uniqueEmail('x'), password: 'wrong password 1' } });
      const { statuses } = await exhaust([a, b], 5, signin);
      expect(statuses).not.toContain(429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
