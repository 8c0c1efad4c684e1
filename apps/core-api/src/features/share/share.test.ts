// GET /api/share/[token] against a real database and the local storage adapter: audio and story links
// are served without signing in, their counts move, and unknown, revoked and expired tokens are 404s
// that carry nothing.
import { randomBytes } from 'node:crypto';
import type { ObjectStorage } from '@story/providers';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newStory } from '../../test/stories-books-factories';

let t: TestContext;
let owner: SignedUp;
let storage: ObjectStorage;
let recordingId: string;
const audioBytes = Buffer.from(Array.from({ length: 4000 }, (_, i) => i % 251));

beforeAll(async () => {
  t = await buildTestApp({}, { providers: (base) => ((storage = base.storage), {}) });
  owner = await signUp(t.app);
  const key = `recordings/${owner.userId}/${randomBytes(8).toString('hex')}.mp3`;
  await storage.put(key, audioBytes, { contentType: 'audio/mpeg' });
  [{ id: recordingId }] = await t.database.sql<{ id: string }[]>`
    insert into recordings (user_id, storage_key, title, mime_type, duration_seconds, original_file_size_bytes)
    values (${owner.userId}, ${key}, 'Grandma laughing', 'audio/mpeg', 12, ${audioBytes.length}) returning id`;
});
afterAll(async () => t.close());

const token = () => randomBytes(24).toString('base64url');
const audioShare = async (opts: { expires?: string; revoked?: boolean } = {}) => {
  const value = token();
  await t.database.sql`
    insert into audio_shares (recording_id, created_by, token, expires_at, revoked_at)
    values (${recordingId}, ${owner.userId}, ${value}, ${opts.expires ?? null}, ${opts.revoked ? new Date().toISOString() : null})`;
  return value;
};
const open = (value: string, url = `/api/share/${value}`, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

it('an audio link shows the recording and streams its media (Range honoured), without a session', async () => {
  const value = await audioShare({ expires: new Date(Date.now() + 3600_000).toISOString() });
  const res = await open(value);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({
    kind: 'audio',
    recording: { id: recordingId, title: 'Grandma laughing', duration_seconds: 12, media_type: 'audio', audio_url: `/api/share/${value}/audio` },
  });
  expect(res.json().recording).not.toHaveProperty('storage_key');

  const whole = await open(value, `/api/share/${value}/audio`);
  expect(whole.statusCode).toBe(200);
  expect(whole.headers['content-type']).toBe('audio/mpeg');
  expect(Buffer.compare(whole.rawPayload, audioBytes)).toBe(0);
  const part = await open(value, `/api/share/${value}/audio`, { range: 'bytes=100-199' });
  expect(part.statusCode).toBe(206);
  expect(Buffer.compare(part.rawPayload, audioBytes.subarray(100, 200))).toBe(0);
  // Only the play from the start counts.
  const [row] = await t.database.sql`select play_count from audio_shares where token = ${value}`;
  expect(row!['play_count']).toBe(1);
});

it('a story link shows the story and counts the view', async () => {
  const story = await newStory(t.database.sql, owner.userId, { title: 'The flood of 1953', content: '<p>The water came at night.</p>' });
  const shareId = token();
  await t.database.sql`insert into story_shares (story_id, share_id, created_by) values (${story.id}, ${shareId}, ${owner.userId})`;
  const res = await open(shareId);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ kind: 'story', story: { id: story.id, title: 'The flood of 1953', content: '<p>The water came at night.</p>', dir: 'ltr' }, share: { viewCount: 1 } });
});

it("a story link says the story's language and direction from its text", async () => {
  const story = await newStory(t.database.sql, owner.userId, { title: 'סבתא שרה', content: '<p>סבתא שרה נולדה בחיפה ואהבה את הים ואת הלחם הטרי בכל בוקר.</p>' });
  const shareId = token();
  await t.database.sql`insert into story_shares (story_id, share_id, created_by) values (${story.id}, ${shareId}, ${owner.userId})`;
  expect((await open(shareId)).json().story).toMatchObject({ lang: 'he', dir: 'rtl' });
});

it('unknown, revoked, expired and malformed tokens are 404s carrying nothing, and nothing is counted', async () => {
  const revoked = await audioShare({ revoked: true });
  const expired = await audioShare({ expires: new Date(Date.now() - 1000).toISOString() });
  for (const value of [token(), revoked, expired, 'short', '../../etc/passwd']) {
    for (const url of [`/api/share/${encodeURIComponent(value)}`, `/api/share/${encodeURIComponent(value)}/audio`]) {
      const res = await open(value, url);
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json())).toEqual(['error']);
    }
  }
  const counts = await t.database.sql`select play_count from audio_shares where token in (${revoked}, ${expired})`;
  expect(counts.map((r) => r['play_count'])).toEqual([0, 0]);
});
