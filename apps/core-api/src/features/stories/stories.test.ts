import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newCampaign, newFamily, newStory } from '../../test/stories-books-factories';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const post = (who: SignedUp, payload: unknown) => t.app.inject({ method: 'POST', url: '/api/stories', headers: who.headers, payload: payload as object });

describe('POST /api/stories', () => {
  it('creates a story with sanitised content, its word count and the caller as owner and author', async () => {
    const alice = await signUp(t.app);
    const res = await post(alice, {
      title: '  Summer of 1962  ',
      type: 'story',
      content:
        '<p onclick="steal()" class="x">We <b>drove</b> to <strong style="color:red">Maine</strong> and <i>swam</i>.</p>' +
        '<script>alert("owned")</script><img src=x onerror=alert(1)><ul><li>Rose</li><li><a href="http://evil.example">Joe</a></li></ul>' +
        '<h1>Big</h1><style>p{}</style><p>Line<br>two</p>',
      metadata: { mood: 'happy', authorId: 'forged' },
    });
    expect(res.statusCode).toBe(201);
    const story = res.json();
    expect(story.title).toBe('Summer of 1962');
    // Allowed tags kept; b/i mapped to strong/em; attributes, scripts with their text, images and links dropped.
    expect(story.content).toBe('<p>We <strong>drove</strong> to <strong>Maine</strong> and <em>swam</em>.</p><ul><li>Rose</li><li>Joe</li></ul>Big<p>Line<br />two</p>');
    expect(story.content).not.toMatch(/script|alert|onclick|style|href|img/);
    expect(story.wordCount).toBe(10);
    expect(story).toMatchObject({ userId: alice.userId, authorId: alice.userId, type: 'story', campaignId: null, book_id: null, ai_enhanced: false });
    expect(story.metadata).toEqual({ mood: 'happy', authorId: alice.userId });

    const listed = (await t.app.inject({ method: 'GET', url: '/api/stories', headers: alice.headers })).json();
    expect(listed).toEqual({ stories: [story], nextCursor: null, hasMore: false });
    const [row] = await t.database.sql`select user_id, content, word_count, metadata from stories where id = ${story.id}`;
    expect(row).toEqual({ user_id: alice.userId, content: story.content, word_count: 10, metadata: { mood: 'happy', authorId: alice.userId } });
  });

  it('refuses a 201-character title, a missing title and 50001 characters of content with 400 naming the field, writing nothing', async () => {
    const bob = await signUp(t.app);
    const cases: [unknown, string][] = [
      [{ title: 'x'.repeat(201) }, 'title'],
      [{ title: '   ' }, 'title'],
      [{ type: 'story' }, 'title'],
      [{ title: 'ok', content: 'a'.repeat(50001) }, 'content'],
      // Within the limit as sent, over it once & becomes &amp;.
      [{ title: 'ok', content: '&'.repeat(20000) }, 'content'],
      [{ title: 'ok', campaignId: 'not-a-uuid' }, 'campaignId'],
      [{ title: 'ok', unknownField: 1 }, ''],
    ];
    for (const [payload, field] of cases) {
      const res = await post(bob, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(field);
    }
    expect(await t.database.sql`select 1 from stories where user_id = ${bob.userId}`).toHaveLength(0);
    // The limits themselves are accepted.
    const ok = await post(bob, { title: 'x'.repeat(200), content: 'a'.repeat(50000) });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().content).toHaveLength(50000);
  });

  it("puts a contributor's story in the campaign owner's library with the contributor as author; a viewer gets 403, a stranger 404", async () => {
    const [owner, contributor, viewer, stranger] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app), signUp(t.app)]);
    await newFamily(t.database.sql, owner.userId, [
      { userId: contributor.userId, role: 'family_contributor' },
      { userId: viewer.userId, role: 'family_viewer' },
    ]);
    const campaign = await newCampaign(t.database.sql, owner.userId);
    const res = await post(contributor, { title: 'Grandpa at the fair', campaignId: campaign.id, content: '<p>He won a pig.</p>' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ userId: owner.userId, authorId: contributor.userId, campaignId: campaign.id, wordCount: 4 });
    expect((await post(viewer, { title: 'x', campaignId: campaign.id })).statusCode).toBe(403);
    const denied = await post(stranger, { title: 'x', campaignId: campaign.id });
    expect(denied.statusCode).toBe(404);
    expect(denied.json().error).toContain('Campaign');
    expect(await t.database.sql`select 1 from stories where campaign_id = ${campaign.id}`).toHaveLength(1);
  });

  it('requires a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/stories', payload: { title: 'x' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized' });
  });
});

describe('GET /api/stories', () => {
  it('pages newest first with a cursor and with page numbers, without skipping or repeating', async () => {
    const carol = await signUp(t.app);
    const other = await signUp(t.app);
    const base = Date.UTC(2024, 0, 1);
    // Two stories share a timestamp: the id breaks the tie so the cursor neither skips nor repeats.
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await newStory(t.database.sql, carol.userId, { title: `S${i}`, createdAt: new Date(base + Math.min(i, 23) * 60000) })).id);
    await newStory(t.database.sql, other.userId, { title: 'not mine' });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url = `/api/stories?limit=10${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await t.app.inject({ method: 'GET', url, headers: carol.headers });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { stories: { id: string }[]; hasMore: boolean; nextCursor: string | null };
      seen.push(...body.stories.map((s) => s.id));
      expect(body.hasMore).toBe(body.nextCursor !== null);
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(25);
    expect(new Set(seen)).toEqual(new Set(ids));
    const titles = (await t.app.inject({ method: 'GET', url: '/api/stories?limit=3', headers: carol.headers })).json().stories.map((s: { title: string }) => s.title);
    // S23 and S24 share the newest timestamp (either order, decided by id), then S22.
    expect(new Set(titles.slice(0, 2))).toEqual(new Set(['S23', 'S24']));
    expect(titles[2]).toBe('S22');

    // A list item (JSON built by PostgreSQL) is exactly what GET /api/stories/[id] answers.
    const first = (await t.app.inject({ method: 'GET', url: '/api/stories?limit=1', headers: carol.headers })).json().stories[0];
    expect(first).toEqual((await t.app.inject({ method: 'GET', url: `/api/stories/${first.id}`, headers: carol.headers })).json());

    const page2 = (await t.app.inject({ method: 'GET', url: '/api/stories?limit=10&page=2', headers: carol.headers })).json();
    expect(page2.stories.map((s: { id: string }) => s.id)).toEqual(seen.slice(20));
    expect(page2.hasMore).toBe(false);

    const bad = await t.app.inject({ method: 'GET', url: '/api/stories?cursor=garbage', headers: carol.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('cursor');
    expect((await t.app.inject({ method: 'GET', url: '/api/stories?limit=101', headers: carol.headers })).statusCode).toBe(400);
  });

  it("merges the caller's and active family members' stories into one order across cursor and page numbers", async () => {
    const [dan, erin, fay, stranger] = [await signUp(t.app), await signUp(t.app), await signUp(t.app), await signUp(t.app)];
    const group = await newFamily(t.database.sql, dan.userId, [
      { userId: erin.userId, role: 'family_viewer' },
      { userId: fay.userId, role: 'family_contributor' },
    ]);
    const base = Date.UTC(2023, 5, 1);
    // Interleaved in time: dan, erin, fay, dan, erin, fay, ... (the stranger's are newer than all of them).
    const owners = [dan, erin, fay];
    const expected: string[] = [];
    for (let i = 0; i < 12; i++) expected.unshift((await newStory(t.database.sql, owners[i % 3]!.userId, { title: `F${i}`, createdAt: new Date(base + i * 60000) })).id);
    for (let i = 0; i < 3; i++) await newStory(t.database.sql, stranger.userId, { title: 'not family', createdAt: new Date(base + 3_600_000) });

    const byCursor: string[] = [];
    let cursor: string | null = null;
    do {
      const body = (await t.app.inject({ method: 'GET', url: `/api/stories?limit=5${cursor ? `&cursor=${cursor}` : ''}`, headers: erin.headers })).json() as { stories: { id: string }[]; nextCursor: string | null };
      byCursor.push(...body.stories.map((s) => s.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(byCursor).toEqual(expected);
    const byPage: string[] = [];
    for (let page = 0; page < 3; page++) {
      const body = (await t.app.inject({ method: 'GET', url: `/api/stories?limit=5&page=${page}`, headers: dan.headers })).json() as { stories: { id: string }[]; hasMore: boolean };
      byPage.push(...body.stories.map((s) => s.id));
      expect(body.hasMore).toBe(page < 2);
    }
    expect(byPage).toEqual(expected);

    // A member removed from the group sees only their own stories from then on.
    await t.database.sql`update family_members set status = 'removed', removed_at = now() where family_group_id = ${group.id} and user_id = ${fay.userId}`;
    const fays = (await t.app.inject({ method: 'GET', url: '/api/stories?limit=100', headers: fay.headers })).json().stories.map((s: { id: string }) => s.id);
    expect(fays).toEqual(expected.filter((_, i) => (11 - i) % 3 === 2));
    const dans = (await t.app.inject({ method: 'GET', url: '/api/stories?limit=100', headers: dan.headers })).json().stories.map((s: { id: string }) => s.id);
    expect(dans).toEqual(expected.filter((_, i) => (11 - i) % 3 !== 2));
  });
});

describe('GET/PUT/DELETE /api/stories/[id]', () => {
  it('updates content (sanitised, word count kept), keeps the author, deletes, and hides others\' stories with 404', async () => {
    const dan = await signUp(t.app);
    const eve = await signUp(t.app);
    const created = (await post(dan, { title: 'Draft', content: '<p>one two</p>' })).json();
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/stories/${created.id}`,
      headers: dan.headers,
      payload: { title: 'Final', content: '<p>one <em>two</em> three<script>x()</script></p>', metadata: { authorId: eve.userId, tag: 'a' }, ai_enhanced: true },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ title: 'Final', content: '<p>one <em>two</em> three</p>', wordCount: 3, ai_enhanced: true, authorId: dan.userId, metadata: { tag: 'a', authorId: dan.userId } });

    const got = await t.app.inject({ method: 'GET', url: `/api/stories/${created.id}`, headers: dan.headers });
    expect(got.json().title).toBe('Final');
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `/api/stories/${created.id}`, headers: eve.headers, ...(method === 'PUT' ? { payload: { title: 'hijack' } } : {}) });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Final');
    }
    const tooLong = await t.app.inject({ method: 'PUT', url: `/api/stories/${created.id}`, headers: dan.headers, payload: { content: 'b'.repeat(50001) } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toContain('content');

    const del = await t.app.inject({ method: 'DELETE', url: `/api/stories/${created.id}`, headers: dan.headers });
    expect(del.statusCode).toBe(200);
    expect(await t.database.sql`select 1 from stories where id = ${created.id}`).toHaveLength(0);
    expect((await t.app.inject({ method: 'GET', url: `/api/stories/${created.id}`, headers: dan.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/stories/not-a-uuid', headers: dan.headers })).statusCode).toBe(400);
  });

  it('binds a story to a book on create and moves it between books on update, keeping both chapter lists right', async () => {
    const fay = await signUp(t.app);
    const mkBook = async (title: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/books', headers: fay.headers, payload: { title, author_name: 'Fay', trim_size: '6x9' } })).json().book.id as string;
    const [b1, b2] = [await mkBook('One'), await mkBook('Two')];
    const s = (await post(fay, { title: 'Chapter A', content: '<p>a b c</p>', book_id: b1 })).json();
    expect(s.book_id).toBe(b1);
    let book = (await t.app.inject({ method: 'GET', url: `/api/books/${b1}`, headers: fay.headers })).json().book;
    expect(book.chapters).toEqual([{ id: s.id, chapter_number: 1, title: 'Chapter A', word_count: 3, status: 'completed' }]);
    expect(book.word_count).toBe(3);

    const moved = await t.app.inject({ method: 'PUT', url: `/api/stories/${s.id}`, headers: fay.headers, payload: { book_id: b2, title: 'Chapter A2' } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().book_id).toBe(b2);
    book = (await t.app.inject({ method: 'GET', url: `/api/books/${b1}`, headers: fay.headers })).json().book;
    expect(book).toMatchObject({ chapters: [], story_ids: [], word_count: 0 });
    book = (await t.app.inject({ method: 'GET', url: `/api/books/${b2}`, headers: fay.headers })).json().book;
    expect(book.chapters.map((c: { title: string }) => c.title)).toEqual(['Chapter A2']);

    const detached = await t.app.inject({ method: 'PUT', url: `/api/stories/${s.id}`, headers: fay.headers, payload: { book_id: null } });
    expect(detached.json().book_id).toBeNull();
    expect(await t.database.sql`select 1 from book_chapters where story_id = ${s.id}`).toHaveLength(0);

    const stranger = await signUp(t.app);
    const foreign = await post(stranger, { title: 'x', book_id: b1 });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toContain('Book');
    expect(await t.database.sql`select 1 from stories where user_id = ${stranger.userId}`).toHaveLength(0);
  });
});

describe('field names of spec 000 (CONTRACTS §8)', () => {
  it('takes book_id, ai_enhanced, source_recording_ids and source_conversation_ids in create and update bodies and answers with them', async () => {
    const gil = await signUp(t.app);
    const book = (await t.app.inject({ method: 'POST', url: '/api/books', headers: gil.headers, payload: { title: 'B', author_name: 'Gil', trim_size: '6x9' } })).json().book.id as string;
    const [rec] = await t.database.sql`insert into recordings (user_id, storage_key) values (${gil.userId}, 'k/spec-names') returning id`;
    const [conv] = await t.database.sql`insert into conversations (user_id) values (${gil.userId}) returning id`;
    const res = await post(gil, { title: 'Named', book_id: book, ai_enhanced: true, source_recording_ids: [rec!['id']], source_conversation_ids: [conv!['id']] });
    expect(res.statusCode).toBe(201);
    const story = res.json();
    expect(story).toMatchObject({ book_id: book, ai_enhanced: true, source_recording_ids: [rec!['id']], source_conversation_ids: [conv!['id']] });
    for (const renamed of ['bookId', 'aiEnhanced', 'sourceRecordingIds', 'sourceConversationIds']) expect(story).not.toHaveProperty(renamed);
    const [row] = await t.database.sql`select book_id, ai_enhanced, source_recording_ids, source_conversation_ids from stories where id = ${story.id}`;
    expect(row).toEqual({ book_id: book, ai_enhanced: true, source_recording_ids: [rec!['id']], source_conversation_ids: [conv!['id']] });
    // The list (built in PostgreSQL) and the single read carry the same names.
    const listed = (await t.app.inject({ method: 'GET', url: '/api/stories', headers: gil.headers })).json().stories[0];
    expect(listed).toEqual(story);

    const put = await t.app.inject({ method: 'PUT', url: `/api/stories/${story.id}`, headers: gil.headers, payload: { book_id: null, ai_enhanced: false, source_conversation_ids: [] } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ book_id: null, ai_enhanced: false, source_recording_ids: [rec!['id']], source_conversation_ids: [] });
    const [after] = await t.database.sql`select book_id, ai_enhanced, source_conversation_ids from stories where id = ${story.id}`;
    expect(after).toEqual({ book_id: null, ai_enhanced: false, source_conversation_ids: [] });

    // The old camelCase spelling is still read (deprecated); both spellings of one field is a 400 naming
    // the spec's name, and nothing is written.
    const legacy = await post(gil, { title: 'Legacy', aiEnhanced: true });
    expect(legacy.statusCode).toBe(201);
    expect(legacy.json()).toMatchObject({ ai_enhanced: true });
    const both = await post(gil, { title: 'Twice', ai_enhanced: true, aiEnhanced: false });
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toContain('ai_enhanced');
    expect(await t.database.sql`select 1 from stories where title = 'Twice'`).toHaveLength(0);
    // Another owner's recording is refused naming the spec's field.
    const other = await signUp(t.app);
    const foreign = await post(other, { title: 'Foreign', source_recording_ids: [rec!['id']] });
    expect(foreign.statusCode).toBe(404);
    expect(await t.database.sql`select 1 from stories where user_id = ${other.userId}`).toHaveLength(0);
  });
});
