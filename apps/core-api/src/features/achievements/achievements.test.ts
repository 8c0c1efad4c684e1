// Achievements (spec 000): the seeded catalogue, progress computed from real activity, and POST /check
// awarding each newly earned achievement exactly once, also when two checks race.
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newFamily, newStory } from '../../test/stories-books-factories';
import { createAchievementsRepository } from './achievements.repository';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const sql = () => t.database.sql;
const get = (who: SignedUp, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers });
const check = (who: SignedUp) => t.app.inject({ method: 'POST', url: '/api/achievements/check', headers: who.headers });

async function newRecording(userId: string, seconds: number, status = 'completed') {
  await sql()`insert into recordings (user_id, title, duration_seconds, status, storage_key, audio_url)
              values (${userId}, 'A memory', ${seconds}, ${status}, ${status === 'completed' ? `test/${userId}/${Math.random()}` : null}, null)`;
}
const newBook = (userId: string) => sql()`insert into books (user_id, title) values (${userId}, 'Our book')`;
const awardRows = (userId: string) =>
  sql()`select achievement_id, count(*)::int as n from achievement_progress where user_id = ${userId} and unlocked_at is not null group by achievement_id order by achievement_id`;

describe('GET /api/achievements/definitions', () => {
  it('lists the seeded catalogue with the spec fields', async () => {
    const me = await signUp(t.app);
    const res = await get(me, '/api/achievements/definitions');
    expect(res.statusCode).toBe(200);
    const list = res.json().achievements;
    expect(list.length).toBeGreaterThanOrEqual(10);
    expect(list[0]).toEqual({ id: 'first-story', name: 'First story', description: expect.any(String), icon: 'book-open', points: 10, category: 'stories' });
    for (const a of list) expect(a).toEqual(expect.objectContaining({ id: expect.stringMatching(/^[a-z0-9-]+$/), name: expect.any(String), icon: expect.any(String), points: expect.any(Number) }));
  });
});

describe('progress and check', () => {
  it('computes progress from stories, recordings, books and family, and awards what was earned once', async () => {
    const me = await signUp(t.app);
    const relative = await signUp(t.app);
    const empty = (await get(me, '/api/achievements/progress')).json();
    expect(empty.metrics).toEqual({ stories_created: 0, words_written: 0, recordings_created: 0, recording_minutes: 0, books_created: 0, family_groups: 0, family_members: 0 });
    expect(empty.progress.every((p: { current: number; earned: boolean }) => p.current === 0 && !p.earned)).toBe(true);

    await newStory(sql(), me.userId, { wordCount: 1200 });
    await newStory(sql(), me.userId, { wordCount: 300 });
    await newStory(sql(), relative.userId);
    await newRecording(me.userId, 1500);
    await newRecording(me.userId, 2000);
    await newRecording(me.userId, 9999, 'upload_failed');
    await newBook(me.userId);
    await newFamily(sql(), me.userId, [{ userId: relative.userId, role: 'family_contributor' }]);

    const progress = (await get(me, '/api/achievements/progress')).json();
    expect(progress.metrics).toEqual({ stories_created: 2, words_written: 1500, recordings_created: 2, recording_minutes: 58, books_created: 1, family_groups: 1, family_members: 1 });
    const byId = Object.fromEntries(progress.progress.map((p: { achievement_id: string }) => [p.achievement_id, p]));
    expect(byId['first-story']).toMatchObject({ current: 2, target: 1, percent: 100, earned: true, unlocked: false });
    expect(byId['ten-stories']).toMatchObject({ current: 2, target: 10, percent: 20, earned: false });
    expect(byId['hour-of-memories']).toMatchObject({ current: 58, target: 60, percent: 97, earned: false });
    // Reading progress awards nothing.
    expect(await awardRows(me.userId)).toEqual([]);

    const first = await check(me);
    expect(first.statusCode).toBe(200);
    const earned = ['family-founder', 'first-book', 'first-recording', 'first-story'];
    expect(first.json().newlyUnlocked.map((a: { id: string }) => a.id).sort()).toEqual(earned);
    expect(first.json().totalPoints).toBe(10 + 10 + 25 + 15);
    expect((await awardRows(me.userId)).map((r) => r['achievement_id'])).toEqual(earned);

    // Nothing new: nothing awarded again.
    const second = await check(me);
    expect(second.json().newlyUnlocked).toEqual([]);
    expect(second.json().achievements).toHaveLength(4);

    // A new recording crosses the hour: only that one is new.
    await newRecording(me.userId, 200);
    expect((await check(me)).json().newlyUnlocked.map((a: { id: string }) => a.id)).toEqual(['hour-of-memories']);

    const mine = (await get(me, '/api/achievements/user')).json();
    expect(mine.achievements.map((a: { id: string }) => a.id).sort()).toEqual([...earned, 'hour-of-memories'].sort());
    expect(mine.achievements[0]).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String), points: expect.any(Number), unlocked_at: expect.stringMatching(/Z$/) }));
    // The relative's activity is theirs: one story and one group, nothing awarded until they check.
    expect((await get(relative, '/api/achievements/user')).json()).toEqual({ achievements: [], totalPoints: 0 });
    expect((await get(relative, '/api/achievements/progress')).json().metrics).toMatchObject({ stories_created: 1, family_groups: 1, family_members: 0 });
  });

  it('awards each achievement exactly once when two checks run at the same time', async () => {
    for (let round = 0; round < 3; round++) {
      const me = await signUp(t.app);
      await newStory(sql(), me.userId);
      await newRecording(me.userId, 60);
      await newBook(me.userId);
      const [a, b] = await Promise.all([check(me), check(me)]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      const awarded = [...a.json().newlyUnlocked, ...b.json().newlyUnlocked].map((x: { id: string }) => x.id).sort();
      expect(awarded).toEqual(['first-book', 'first-recording', 'first-story']);
      const rows = await awardRows(me.userId);
      expect(rows).toEqual([
        { achievement_id: 'first-book', n: 1 },
        { achievement_id: 'first-recording', n: 1 },
        { achievement_id: 'first-story', n: 1 },
      ]);
      const [count] = await sql()`select count(*)::int as n from achievement_progress where user_id = ${me.userId}`;
      const [defs] = await sql()`select count(*)::int as n from achievement_definitions where is_active`;
      expect(count!['n']).toBe(defs!['n']);
    }
  });

  it('makes a second check wait on the rows of the first and then find nothing left to award', async () => {
    const me = await signUp(t.app);
    const repo = createAchievementsRepository(t.database.db);
    const rows = [{ achievementId: 'first-story', progress: 1, target: 1 }];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let firstDone!: () => void;
    const firstReady = new Promise<void>((r) => (firstDone = r));
    const first = t.database.db.transaction(async (tx) => {
      await repo.upsertProgress(me.userId, rows, tx);
      const got = await repo.unlockReached(me.userId, tx);
      firstDone();
      await gate; // hold the row locks, uncommitted
      return got;
    });
    await firstReady;
    let secondSettled = false;
    const second = t.database.db
      .transaction(async (tx) => {
        await repo.upsertProgress(me.userId, rows, tx);
        return repo.unlockReached(me.userId, tx);
      })
      .finally(() => (secondSettled = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(secondSettled).toBe(false); // blocked on the first transaction's row
    release();
    expect(await first).toEqual(['first-story']);
    expect(await second).toEqual([]);
    expect(await awardRows(me.userId)).toEqual([{ achievement_id: 'first-story', n: 1 }]);
  });

  it('needs a session: 401 without a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/achievements/check' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized' });
  });
});
