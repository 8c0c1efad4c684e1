// The evaluation rules of CONTRACTS §7, the 300 s cache, and cache clearing across two postgres.js
// clients (as two replicas would hold) through LISTEN/NOTIFY on a real database.
import { createDbClient, type DbClient } from '@story/db';
import { createTestDatabase, type TestDatabase } from '@story/db/testing';
import { createCacheBus } from './cache-bus';
import { evaluateFlag, pickVariant, rolloutBucket, stableHash, type FlagRule } from './evaluate';
import { createFlagStore, sqlFlagSource } from './store';

const rule = (over: Partial<FlagRule> = {}): FlagRule => ({ key: 'new_editor', enabled: true, rolloutPercentage: 100, variants: null, overrides: new Map(), ...over });
const users = Array.from({ length: 2000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

describe('evaluateFlag', () => {
  it('hashes stably (fixed values, not seeded per process)', () => {
    expect(stableHash('a')).toBe(stableHash('a'));
    expect(stableHash('new_editor:u1')).not.toBe(stableHash('new_editor:u2'));
    // Pinned so a change of the function (which would reshuffle every rollout) fails here.
    expect(rolloutBucket('k', 'u')).toBe(stableHash('k:u') % 100);
    expect(pickVariant('k', 'u', [{ name: 'a', weight: 3 }, { name: 'b', weight: 4 }])).toBe(stableHash('k:variant:u') % 7 < 3 ? 'a' : 'b');
    expect([stableHash(''), stableHash('abc')]).toEqual([2872998923, 482950588]);
  });

  it('is off for everyone when the global toggle is off, unless an override says otherwise', () => {
    const r = rule({ enabled: false, overrides: new Map([[users[1]!, true]]) });
    expect(evaluateFlag(r, users[0]!)).toBe(false);
    expect(evaluateFlag(r, users[1]!)).toBe(true);
    expect(evaluateFlag(rule({ overrides: new Map([[users[2]!, false]]) }), users[2]!)).toBe(false);
  });

  it('rolls out to about the percentage, and raising it only adds users', () => {
    let previous = new Set<string>();
    for (const pct of [0, 10, 25, 50, 90, 100]) {
      const on = new Set(users.filter((u) => evaluateFlag(rule({ rolloutPercentage: pct }), u) === true));
      for (const u of previous) expect(on.has(u)).toBe(true);
      expect(Math.abs(on.size / users.length - pct / 100)).toBeLessThan(0.04);
      previous = on;
    }
  });

  it('gives the same answer for the same user every time, and buckets differ per flag', () => {
    const r = rule({ rolloutPercentage: 30 });
    const first = users.map((u) => evaluateFlag(r, u));
    expect(users.map((u) => evaluateFlag(r, u))).toEqual(first);
    const other = users.map((u) => evaluateFlag({ ...r, key: 'other_flag' }, u));
    expect(other).not.toEqual(first);
  });

  it('assigns A/B variants by weight, stably, only inside the rollout', () => {
    const variants = [
      { name: 'control', weight: 50 },
      { name: 'blue', weight: 30 },
      { name: 'green', weight: 20 },
    ];
    const r = rule({ variants, rolloutPercentage: 100 });
    const counts: Record<string, number> = {};
    for (const u of users) {
      const v = evaluateFlag(r, u) as string;
      counts[v] = (counts[v] ?? 0) + 1;
      expect(pickVariant('new_editor', u, variants)).toBe(v);
    }
    expect(Math.abs(counts['control']! / users.length - 0.5)).toBeLessThan(0.05);
    expect(Math.abs(counts['blue']! / users.length - 0.3)).toBeLessThan(0.05);
    expect(Math.abs(counts['green']! / users.length - 0.2)).toBeLessThan(0.05);
    expect(users.filter((u) => evaluateFlag({ ...r, rolloutPercentage: 0 }, u) !== false)).toEqual([]);
  });

  it('answers a caller without an account only for a full rollout', () => {
    expect(evaluateFlag(rule(), null)).toBe(true);
    expect(evaluateFlag(rule({ rolloutPercentage: 99 }), null)).toBe(false);
  });
});

it('starts without a reachable database (the service reports it on /health) and stops cleanly', async () => {
  const dead = createDbClient('postgres://postgres:x@127.0.0.1:1/none', { max: 1 });
  const errors: unknown[] = [];
  const bus = createCacheBus({ sql: dead.sql, onError: (err) => errors.push(err) });
  await bus.start();
  expect(errors).toHaveLength(1);
  await bus.stop();
  await dead.close();
});

describe('flag store and cache bus on PostgreSQL', () => {
  let t: TestDatabase;
  let second: DbClient;
  let userId: string;
  beforeAll(async () => {
    t = await createTestDatabase();
    second = createDbClient(t.url, { max: 2 });
    const [a] = await t.sql`insert into accounts (email) values ('flag.user@example.test') returning id`;
    userId = a!['id'] as string;
    await t.sql`insert into feature_flags (key, enabled, rollout_percentage) values ('beta', false, 100)`;
  });
  afterAll(async () => {
    await second.close();
    await t.drop();
  });

  it('serves from cache for the TTL, then reads again', async () => {
    let clock = 1_000_000;
    let loads = 0;
    const source = sqlFlagSource(t.sql);
    const store = createFlagStore({ source: { load: () => (loads++, source.load()) }, now: () => clock });
    expect(await store.evaluate('beta', userId)).toBe(false);
    await t.sql`update feature_flags set enabled = true where key = 'beta'`;
    clock += 299_000;
    expect(await store.evaluate('beta', userId)).toBe(false);
    expect(store.evaluateCached('beta', userId)).toBe(false);
    clock += 2_000;
    expect(store.evaluateCached('beta', userId)).toBeUndefined();
    expect(await store.evaluate('beta', userId)).toBe(true);
    expect(loads).toBe(2);
    expect(await store.evaluateAll(userId)).toEqual({ beta: true });
    expect(await store.evaluate('missing', userId)).toBe(false);
    await t.sql`update feature_flags set enabled = false where key = 'beta'`;
  });

  it('loads once for many concurrent evaluations', async () => {
    let loads = 0;
    const source = sqlFlagSource(t.sql);
    const store = createFlagStore({ source: { load: () => (loads++, source.load()) } });
    await Promise.all(Array.from({ length: 20 }, () => store.evaluate('beta', userId)));
    expect(loads).toBe(1);
  });

  it('a NOTIFY from one client clears the cache held on another client within a second', async () => {
    const remote = createFlagStore({ source: sqlFlagSource(second.sql) });
    const remoteBus = createCacheBus({ sql: second.sql });
    remoteBus.register('flags', () => remote.clear());
    await remoteBus.start();
    const localBus = createCacheBus({ sql: t.sql });
    try {
      expect(await remote.evaluate('beta', userId)).toBe(false);
      // The change and its notification commit together (what the feature-flags route does).
      await t.sql.begin(async (tx) => {
        await tx`update feature_flags set enabled = true where key = 'beta'`;
        await tx`select pg_notify('story_cache_clear', 'flags')`;
      });
      const started = Date.now();
      while (remote.evaluateCached('beta', userId) !== undefined && Date.now() - started < 1000) await new Promise((r) => setTimeout(r, 10));
      expect(Date.now() - started).toBeLessThan(1000);
      expect(await remote.evaluate('beta', userId)).toBe(true);
      // publish('all') clears here at once and there through the channel.
      expect(await remote.evaluate('beta', userId)).toBe(true);
      await localBus.publish();
      const t2 = Date.now();
      while (remote.evaluateCached('beta', userId) !== undefined && Date.now() - t2 < 1000) await new Promise((r) => setTimeout(r, 10));
      expect(remote.evaluateCached('beta', userId)).toBeUndefined();
    } finally {
      await remoteBus.stop();
    }
  });
});
