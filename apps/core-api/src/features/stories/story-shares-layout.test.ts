import { buildTestApp, signUp, type TestContext } from '../../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_BASE_URL: 'https://api.example.test' });
});
afterAll(async () => t.close());

async function newStory(headers: Record<string, string>, title = 'Shared story') {
  const res = await t.app.inject({ method: 'POST', url: '/api/stories', headers, payload: { title, content: '<p>Once upon a <strong>time</strong>.</p>' } });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
}

describe('share links', () => {
  it('creates an unguessable link anyone can open without a token, counts views, and answers 404 once revoked', async () => {
    const owner = await signUp(t.app);
    const story = await newStory(owner.headers);
    const created = await t.app.inject({ method: 'POST', url: `/api/stories/${story.id}/share`, headers: owner.headers });
    expect(created.statusCode).toBe(201);
    const share = created.json();
    // 192 random bits in base64url: 32 characters of [A-Za-z0-9_-].
    expect(share.shareId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(share.url).toBe(`https://api.example.test/api/stories/${story.id}/share/${share.shareId}`);
    expect(share).toMatchObject({ storyId: story.id, expiresAt: null, revokedAt: null, viewCount: 0 });
    const second = (await t.app.inject({ method: 'POST', url: `/api/stories/${story.id}/share`, headers: owner.headers })).json();
    expect(second.shareId).not.toBe(share.shareId);

    const path = `/api/stories/${story.id}/share/${share.shareId}`;
    for (const expected of [1, 2]) {
      const open = await t.app.inject({ method: 'GET', url: path });
      expect(open.statusCode).toBe(200);
      expect(open.json()).toEqual({
        story: { id: story.id, title: 'Shared story', content: '<p>Once upon a <strong>time</strong>.</p>', wordCount: 4, createdAt: expect.any(String), typography: { fontFamily: 'Times', fontSize: 11, lineHeight: 1.4 } },
        share: { expiresAt: null, viewCount: expected },
      });
    }
    const [row] = await t.database.sql`select view_count, last_viewed_at is not null as viewed from story_shares where share_id = ${share.shareId}`;
    expect(row).toEqual({ view_count: 2, viewed: true });

    // A link is bound to its story: the right id with another story's path is unknown.
    const other = await newStory(owner.headers, 'Other');
    expect((await t.app.inject({ method: 'GET', url: `/api/stories/${other.id}/share/${share.shareId}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/stories/${story.id}/share/${'A'.repeat(32)}` })).statusCode).toBe(404);

    const listed = await t.app.inject({ method: 'GET', url: `/api/stories/${story.id}/share`, headers: owner.headers });
    expect(listed.json().shares).toHaveLength(2);

    // Someone else cannot revoke it (404: they cannot see the story).
    const stranger = await signUp(t.app);
    expect((await t.app.inject({ method: 'DELETE', url: path, headers: stranger.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);

    const revoked = await t.app.inject({ method: 'DELETE', url: path, headers: owner.headers });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revokedAt).toEqual(expect.any(String));
    const gone = await t.app.inject({ method: 'GET', url: path });
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain('Once upon');
    expect((await t.database.sql`select view_count from story_shares where share_id = ${share.shareId}`)[0]).toEqual({ view_count: 3 }); // two reads and the check after the refused revoke; the refused read after revocation counts nothing
    // The other link still works.
    expect((await t.app.inject({ method: 'GET', url: `/api/stories/${story.id}/share/${second.shareId}` })).statusCode).toBe(200);
  });

  it('honours an expiry: an expired link is 404 and counts nothing', async () => {
    const owner = await signUp(t.app);
    const story = await newStory(owner.headers);
    const share = (await t.app.inject({ method: 'POST', url: `/api/stories/${story.id}/share`, headers: owner.headers, payload: { expiresInDays: 7 } })).json();
    const days = (Date.parse(share.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    const path = `/api/stories/${story.id}/share/${share.shareId}`;
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    await t.database.sql`update story_shares set expires_at = now() - interval '1 second' where share_id = ${share.shareId}`;
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    expect((await t.database.sql`select view_count from story_shares where share_id = ${share.shareId}`)[0]).toEqual({ view_count: 1 });
    const bad = await t.app.inject({ method: 'POST', url: `/api/stories/${story.id}/share`, headers: owner.headers, payload: { expiresInDays: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('expiresInDays');
  });
});

describe('typography and header-footer', () => {
  it('serves defaults, stores valid settings and refuses fonts outside the list and sizes out of range', async () => {
    const owner = await signUp(t.app);
    const story = await newStory(owner.headers);
    const url = `/api/stories/${story.id}/typography`;
    expect((await t.app.inject({ method: 'GET', url, headers: owner.headers })).json()).toEqual({ fontFamily: 'Times', fontSize: 11, lineHeight: 1.4 });
    const put = await t.app.inject({ method: 'PUT', url, headers: owner.headers, payload: { fontFamily: 'Helvetica', fontSize: 12.5, lineHeight: 1.6 } });
    expect(put.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url, headers: owner.headers })).json()).toEqual({ fontFamily: 'Helvetica', fontSize: 12.5, lineHeight: 1.6 });
    for (const [payload, field] of [
      [{ fontFamily: 'Comic Sans MS', fontSize: 12, lineHeight: 1.5 }, 'fontFamily'],
      [{ fontFamily: 'Times', fontSize: 7, lineHeight: 1.5 }, 'fontSize'],
      [{ fontFamily: 'Times', fontSize: 25, lineHeight: 1.5 }, 'fontSize'],
      [{ fontFamily: 'Times', fontSize: 12, lineHeight: 0.9 }, 'lineHeight'],
      [{ fontFamily: 'Times', fontSize: 12, lineHeight: 2.6 }, 'lineHeight'],
      [{ fontFamily: 'Times', fontSize: 12 }, 'lineHeight'],
    ] as const) {
      const res = await t.app.inject({ method: 'PUT', url, headers: owner.headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(field);
    }
    const [row] = await t.database.sql`select typography from stories where id = ${story.id}`;
    expect(row!['typography']).toEqual({ fontFamily: 'Helvetica', fontSize: 12.5, lineHeight: 1.6 });
  });

  it('merges header-footer changes over the defaults and validates each field', async () => {
    const owner = await signUp(t.app);
    const story = await newStory(owner.headers);
    const url = `/api/stories/${story.id}/header-footer`;
    const defaults = (await t.app.inject({ method: 'GET', url, headers: owner.headers })).json();
    expect(defaults).toEqual({
      headerText: '',
      footerText: '',
      showHeader: true,
      showFooter: true,
      showPageNumbers: true,
      headerAlign: 'center',
      footerAlign: 'center',
      pageNumberPosition: 'outside',
    });
    const put = await t.app.inject({ method: 'PUT', url, headers: owner.headers, payload: { headerText: 'The Rose Family', pageNumberPosition: 'right' } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ ...defaults, headerText: 'The Rose Family', pageNumberPosition: 'right' });
    const again = await t.app.inject({ method: 'PUT', url, headers: owner.headers, payload: { showPageNumbers: false } });
    expect(again.json()).toMatchObject({ headerText: 'The Rose Family', pageNumberPosition: 'right', showPageNumbers: false });
    for (const [payload, field] of [
      [{ headerText: 'x'.repeat(101) }, 'headerText'],
      [{ pageNumberPosition: 'top' }, 'pageNumberPosition'],
      [{ showHeader: 'yes' }, 'showHeader'],
      [{ colour: 'red' }, ''],
    ] as const) {
      const res = await t.app.inject({ method: 'PUT', url, headers: owner.headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(field);
    }
    const [row] = await t.database.sql`select header_footer from stories where id = ${story.id}`;
    expect(row!['header_footer']).toMatchObject({ headerText: 'The Rose Family', showPageNumbers: false });
  });
});
