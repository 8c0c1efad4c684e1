import { createObjectStorage } from '@story/providers';
import { buildTestApp, type TestContext } from '../../test/helper';
import { newCast, type Cast } from '../../test/stories-books-factories';
import { newBookWithExport, newImageRow, newRecordingRow, newStoryRow, setMemoriesProfile } from '../../test/memories-factories';

let t: TestContext;
let cast: Cast;
const storage = () => createObjectStorage(t.config.storage, { publicBaseUrl: 'http://127.0.0.1' });

interface Expected {
  id: string;
  kind: string;
  at: Date;
}
const expected: Expected[] = [];
let recording: { id: string; data: Buffer };
let story: { id: string };
let bookExport: { exportId: string };

beforeAll(async () => {
  t = await buildTestApp({ LOG_LEVEL: 'error' });
  cast = await newCast(t.app, t.database.sql);
  const { sql } = t.database;
  const owner = cast.owner.userId;
  await setMemoriesProfile(sql, owner, { timezone: 'Pacific/Auckland', name: 'Ann Storyteller' });
  await setMemoriesProfile(sql, cast.contributor.userId, { name: 'Cora Contributor' });
  const base = Date.UTC(2026, 0, 1, 12, 0, 0);
  // 70 memories over five sources; every fifth time is shared by two sources (ties break by id).
  for (let i = 0; i < 70; i++) {
    const at = new Date(base + Math.floor(i / 2) * 3_600_000);
    const n = i % 5;
    if (n === 0) expected.push({ ...(await newRecordingRow(sql, storage(), owner, { title: `Audio ${i}`, at })), kind: 'recording', at });
    else if (n === 1) expected.push({ ...(await newRecordingRow(sql, storage(), owner, { title: `Video ${i}`, at, mediaType: 'video' })), kind: 'video', at });
    else if (n === 2) expected.push({ ...(await newImageRow(sql, storage(), owner, { title: `Photo ${i}`, at, kind: i % 3 === 0 ? 'art' : 'photo' })), kind: i % 3 === 0 ? 'picture' : 'photo', at });
    else if (n === 3) expected.push({ ...(await newStoryRow(sql, owner, { title: `Story ${i}`, at, authorId: cast.contributor.userId })), kind: 'story', at });
    else {
      const made = await newBookWithExport(sql, storage(), owner, { title: `Book ${i}`, at: new Date(at.getTime() - 60_000) });
      // A newer completed interior of the same book replaces the older one on the page; a newer failed one does not.
      const newer = await newBookWithExport(sql, storage(), owner, { bookId: made.bookId, at });
      await sql`insert into export_jobs (user_id, book_id, kind, status, created_at) values (${owner}, ${made.bookId}, 'interior', 'failed', ${new Date(at.getTime() + 1000).toISOString()})`;
      expected.push({ id: newer.exportId, kind: 'book', at });
    }
  }
  // Someone else's memories and an upload that failed never show.
  await newRecordingRow(sql, storage(), cast.stranger.userId, { title: 'Not hers', at: new Date(base) });
  await sql`insert into recordings (user_id, title, status, media_type) values (${owner}, 'Failed upload', 'upload_failed', 'audio')`;
  expected.sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1));
  recording = (await newRecordingRow(sql, storage(), owner, {
    title: 'Grandma <sings>',
    at: new Date('2025-03-01T20:30:00Z'),
    data: Buffer.from('0123456789abcdefghij'),
  })) as { id: string; data: Buffer };
  story = await newStoryRow(sql, owner, { title: 'The <script>alert(1)</script> day', at: new Date('2025-03-01T21:00:00Z'), content: '<p>We <strong>sailed</strong>.</p><script>bad()</script><img src="http://evil.example/x.png">' });
  bookExport = await newBookWithExport(sql, storage(), owner, { title: 'Our Ünïcode book', at: new Date('2025-03-01T22:00:00Z') });
  expected.push({ id: bookExport.exportId, kind: 'book', at: new Date('2025-03-01T22:00:00Z') }, { id: story.id, kind: 'story', at: new Date('2025-03-01T21:00:00Z') }, { id: recording.id, kind: 'recording', at: new Date('2025-03-01T20:30:00Z') });
}, 60_000);
afterAll(async () => t.close());

const list = (headers: Record<string, string>, query: string) => t.app.inject({ method: 'GET', url: `/api/memories?${query}`, headers });

describe('GET /api/memories', () => {
  it('merges the five sources exactly, newest first, 24 per page, by page and by cursor alike', async () => {
    const byPage: { id: string; kind: string; date: string }[] = [];
    for (let page = 0; ; page++) {
      const res = await list(cast.owner.headers, `page=${page}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.page).toBe(page);
      expect(body.items.length).toBeLessThanOrEqual(24);
      byPage.push(...body.items);
      if (!body.hasMore) break;
      expect(body.items).toHaveLength(24);
    }
    expect(byPage.map((i) => i.id)).toEqual(expected.map((e) => e.id));
    expect(byPage.map((i) => i.kind)).toEqual(expected.map((e) => e.kind));
    expect(byPage.map((i) => i.date)).toEqual(expected.map((e) => e.at.toISOString()));

    const byCursor: { id: string }[] = [];
    let query = 'filter=All';
    for (let n = 0; n < 10; n++) {
      const body = (await list(cast.owner.headers, query)).json();
      byCursor.push(...body.items);
      if (!body.nextCursor) break;
      expect(body.page).toBe(n);
      query = `cursor=${encodeURIComponent(body.nextCursor)}`;
    }
    expect(byCursor.map((i) => i.id)).toEqual(expected.map((e) => e.id));
  });

  it('filters as the spec files them', async () => {
    const kindsOf = async (filter: string) => {
      const out: string[] = [];
      let query = `filter=${filter}`;
      for (;;) {
        const body = (await list(cast.owner.headers, query)).json();
        out.push(...body.items.map((i: { kind: string }) => i.kind));
        if (!body.nextCursor) return out;
        query = `cursor=${encodeURIComponent(body.nextCursor)}`;
      }
    };
    expect(new Set(await kindsOf('Recordings'))).toEqual(new Set(['recording']));
    expect(await kindsOf('Recordings')).toHaveLength(expected.filter((e) => e.kind === 'recording').length);
    expect(new Set(await kindsOf('videos'))).toEqual(new Set(['video']));
    expect(new Set(await kindsOf('Photos'))).toEqual(new Set(['photo', 'picture']));
    expect(new Set(await kindsOf('Book'))).toEqual(new Set(['book', 'story']));
    expect(await kindsOf('Book')).toHaveLength(expected.filter((e) => e.kind === 'book' || e.kind === 'story').length);
  });

  it('answers cards with the spec field names and who added each', async () => {
    const body = (await list(cast.owner.headers, 'filter=Book')).json();
    const storyCard = body.items.find((i: { kind: string }) => i.kind === 'story');
    expect(Object.keys(storyCard)).toEqual(expect.arrayContaining(['id', 'kind', 'title', 'date', 'added-by', 'length', 'size', 'canDownload']));
    expect(storyCard['added-by']).toBe('Cora Contributor');
    expect(storyCard.lengthUnit).toBe('words');
    const book = body.items.find((i: { kind: string }) => i.kind === 'book');
    expect(book.size).toBeGreaterThan(0);
    expect(book.mediaUrl).toBe(`/api/memories/${book.id}/media?type=export`);
    const audio = (await list(cast.owner.headers, 'filter=Recordings')).json().items[0];
    expect(audio).toMatchObject({ kind: 'recording', length: 42, lengthUnit: 'seconds', 'added-by': 'Ann Storyteller', canDownload: true });
    // The chooser: the viewer first, then everyone sharing an active group (never the removed member or a stranger).
    expect(body.storytellers[0]).toEqual({ id: cast.owner.userId, name: 'Ann Storyteller', self: true, canDownload: true });
    expect(new Set(body.storytellers.map((s: { id: string }) => s.id))).toEqual(new Set([cast.owner.userId, cast.contributor.userId, cast.viewer.userId]));
    expect(body.showChooser).toBe(true);
    const alone = (await list(cast.stranger.headers, 'page=0')).json();
    expect(alone.items.map((i: { title: string }) => i.title)).toEqual(['Not hers']);
    expect(alone).toMatchObject({ hasMore: false, nextCursor: null, showChooser: false, storytellerId: cast.stranger.userId });
  });

  it('lets family see (download while the switch is on), and 404s everyone else', async () => {
    const q = `storytellerId=${cast.owner.userId}`;
    for (const who of [cast.viewer, cast.contributor]) {
      const res = await list(who.headers, q);
      expect(res.statusCode).toBe(200);
      expect(res.json().items[0].canDownload).toBe(true);
      expect(res.json().storytellers.map((s: { id: string }) => s.id)).toContain(cast.owner.userId);
      expect(res.json().showChooser).toBe(true);
    }
    for (const who of [cast.stranger, cast.removed]) {
      const res = await list(who.headers, q);
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json())).toEqual(['error']);
    }
    await setMemoriesProfile(t.database.sql, cast.owner.userId, { familyDownload: false });
    try {
      const body = (await list(cast.viewer.headers, q)).json();
      expect(body.items[0]).toMatchObject({ canDownload: false, downloadUrl: null });
      expect((await list(cast.owner.headers, 'page=0')).json().items[0].canDownload).toBe(true);
    } finally {
      await setMemoriesProfile(t.database.sql, cast.owner.userId, { familyDownload: true });
    }
  });

  it('refuses a negative page, a forged or edited cursor, and a cursor for another storyteller with 400', async () => {
    expect((await list(cast.owner.headers, 'page=-1')).statusCode).toBe(400);
    expect((await list(cast.owner.headers, 'page=abc')).json().error).toMatch(/page/);
    expect((await list(cast.owner.headers, 'filter=Everything')).statusCode).toBe(400);
    expect((await list(cast.owner.headers, 'storytellerId=nope')).statusCode).toBe(400);
    const cursor: string = (await list(cast.owner.headers, 'page=0')).json().nextCursor;
    const [body, sig] = cursor.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const edited = `${Buffer.from(JSON.stringify({ ...payload, s: cast.stranger.userId })).toString('base64url')}.${sig}`;
    for (const bad of [edited, 'garbage', `${body}.AAAA`, `${cursor}.x`]) {
      const res = await list(cast.owner.headers, `cursor=${encodeURIComponent(bad)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/cursor/);
    }
    expect((await list(cast.owner.headers, `cursor=${encodeURIComponent(cursor)}&page=1`)).statusCode).toBe(400);
    expect((await list(cast.viewer.headers, `cursor=${encodeURIComponent(cursor)}&storytellerId=${cast.viewer.userId}`)).statusCode).toBe(400);
    // A cursor is no key: a stranger holding the owner's cursor still gets 404.
    expect((await list(cast.stranger.headers, `cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(404);
  });
});

describe('GET /api/memories/:id/media', () => {
  const media = (headers: Record<string, string>, id: string, query: string, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/memories/${id}/media?${query}`, headers: { ...headers, ...extra } });

  it('streams with Range passed through: 200 whole, 206 with Content-Range, 416 past the end', async () => {
    const whole = await media(cast.viewer.headers, recording.id, 'type=recording');
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(recording.data)).toBe(true);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    // 20:30 UTC on 1 March is 2 March in Auckland: the storyteller's calendar date names the file.
    expect(whole.headers['content-disposition']).toBe(`inline; filename="2025-03-02-Grandma sings.mp3"; filename*=UTF-8''2025-03-02-Grandma%20sings.mp3`);
    const part = await media(cast.viewer.headers, recording.id, 'type=recording', { range: 'bytes=5-9' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 5-9/20');
    expect(part.body).toBe('56789');
    const past = await media(cast.viewer.headers, recording.id, 'type=recording', { range: 'bytes=50-' });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */20');
  });

  it('serves the book PDF and checks the type matches the id', async () => {
    const pdf = await media(cast.owner.headers, bookExport.exportId, 'type=export&download=true');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="2025-03-02-Our Unicode book-interior.pdf"; filename\*=UTF-8''2025-03-02-Our%20%C3%9Cn%C3%AFcode%20book-interior.pdf$/);
    expect((await media(cast.owner.headers, bookExport.exportId, 'type=recording')).statusCode).toBe(404);
    expect((await media(cast.owner.headers, recording.id, 'type=video')).statusCode).toBe(400);
  });

  it('gives a story as a standalone page that loads nothing from anywhere', async () => {
    const res = await media(cast.viewer.headers, story.id, 'type=story&download=true');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    const html = res.body;
    expect(html).toContain('<title>The &lt;script&gt;alert(1)&lt;/script&gt; day</title>');
    expect(html).toContain('<p>We <strong>sailed</strong>.</p>');
    expect(html).not.toMatch(/<script|<img|<link|<iframe|\bsrc=|\bhref=|url\(|@import|https?:\/\//i);
    expect(html).toMatch(/font-family: [^;]*serif;/);
    expect(html).toMatch(/<html lang="[a-z]{2,3}" dir="ltr">/);
    const range = await media(cast.viewer.headers, story.id, 'type=story', { range: 'bytes=0-14' });
    expect(range.statusCode).toBe(206);
    expect(range.body).toBe('<!DOCTYPE html>');
  });

  it('repeats the access check on every request: the switch stops family downloads, not plays; strangers get 404', async () => {
    await setMemoriesProfile(t.database.sql, cast.owner.userId, { familyDownload: false });
    try {
      const refused = await media(cast.viewer.headers, recording.id, 'type=recording&download=true');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('Downloads for family members are turned off for these memories. You can still play and open every memory.');
      expect((await media(cast.viewer.headers, recording.id, 'type=recording')).statusCode).toBe(200);
      expect((await media(cast.owner.headers, recording.id, 'type=recording&download=true')).statusCode).toBe(200);
    } finally {
      await setMemoriesProfile(t.database.sql, cast.owner.userId, { familyDownload: true });
    }
    expect((await media(cast.viewer.headers, recording.id, 'type=recording&download=true')).statusCode).toBe(200);
    for (const who of [cast.stranger, cast.removed]) {
      const res = await media(who.headers, recording.id, 'type=recording');
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('0123456789');
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/memories/${recording.id}/media?type=recording` })).statusCode).toBe(401);
  });
});
