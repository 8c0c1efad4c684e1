import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newCampaign, newFamily, newStory } from '../../test/stories-books-factories';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const createBook = (who: SignedUp, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/books', headers: who.headers, payload: { title: 'Our Book', author_name: 'Rose', trim_size: '6x9', ...payload } });
const getBook = async (who: SignedUp, id: string) => (await t.app.inject({ method: 'GET', url: `/api/books/${id}`, headers: who.headers })).json().book;

describe('POST /api/books', () => {
  it('creates a book with every spec field and selectedStories as chapters in order, binding each story and summing words', async () => {
    const owner = await signUp(t.app);
    const campaign = await newCampaign(t.database.sql, owner.userId);
    const group = await newFamily(t.database.sql, owner.userId, []);
    const s1 = await newStory(t.database.sql, owner.userId, { title: 'Childhood', content: '<p>one two three</p>' });
    const s2 = await newStory(t.database.sql, owner.userId, { title: 'War years', content: '<p>four five</p>' });
    const s3 = await newStory(t.database.sql, owner.userId, { title: 'Wedding', content: '<p>six</p>' });
    const res = await createBook(owner, {
      title: 'Rose: A Life',
      subtitle: 'In her own words',
      author_name: 'Rose Miller',
      book_type: 'memoir',
      campaign_id: campaign.id,
      family_group_id: group.id,
      selectedStories: [s2.id, s1.id, s3.id],
      template_id: 'classic-memoir',
      cover_template_id: 'heritage-gold',
      interior_template_id: 'grandparent-legacy',
      trim_size: '5.5x8.5',
      keywords: ['memoir', 'family'],
      categories: ['Biography'],
      language: 'en-GB',
      kdp_enrolled: true,
      kdp_select: false,
    });
    expect(res.statusCode).toBe(201);
    const { book, message, chapters_imported } = res.json();
    expect(chapters_imported).toBe(3);
    expect(message).toBe('Book created with 3 chapters');
    expect(book).toMatchObject({
      user_id: owner.userId,
      title: 'Rose: A Life',
      subtitle: 'In her own words',
      author_name: 'Rose Miller',
      book_type: 'memoir',
      status: 'draft',
      story_ids: [s2.id, s1.id, s3.id],
      word_count: 6,
      campaign_id: campaign.id,
      family_group_id: group.id,
      template_id: 'classic-memoir',
      cover_template_id: 'heritage-gold',
      interior_template_id: 'grandparent-legacy',
      trim_size: '5.5x8.5',
      keywords: ['memoir', 'family'],
      categories: ['Biography'],
      language: 'en-GB',
      kdp_enrolled: true,
      kdp_select: false,
    });
    expect(book.chapters).toEqual([
      { id: s2.id, chapter_number: 1, title: 'War years', word_count: 2, status: 'completed' },
      { id: s1.id, chapter_number: 2, title: 'Childhood', word_count: 3, status: 'completed' },
      { id: s3.id, chapter_number: 3, title: 'Wedding', word_count: 1, status: 'completed' },
    ]);
    const rows = await t.database.sql`select story_id, chapter_number from book_chapters where book_id = ${book.id} order by chapter_number`;
    expect(rows).toEqual([
      { story_id: s2.id, chapter_number: 1 },
      { story_id: s1.id, chapter_number: 2 },
      { story_id: s3.id, chapter_number: 3 },
    ]);
    const bound = await t.database.sql`select id from stories where book_id = ${book.id}`;
    expect(bound).toHaveLength(3);
    // The story API shows the binding too.
    const story = (await t.app.inject({ method: 'GET', url: `/api/stories/${s1.id}`, headers: owner.headers })).json();
    expect(story.book_id).toBe(book.id);
  });

  it("refuses someone else's story in selectedStories with 404 and writes nothing (no book, no chapters, no binding)", async () => {
    const owner = await signUp(t.app);
    const stranger = await signUp(t.app);
    const mine = await newStory(t.database.sql, owner.userId, { title: 'Mine' });
    const theirs = await newStory(t.database.sql, stranger.userId, { title: 'Secret' });
    const res = await createBook(owner, { selectedStories: [mine.id, theirs.id] });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(`Story ${theirs.id} not found`);
    expect(res.body).not.toContain('Secret');
    expect(await t.database.sql`select 1 from books where user_id = ${owner.userId}`).toHaveLength(0);
    expect(await t.database.sql`select 1 from book_chapters where story_id = ${mine.id}`).toHaveLength(0);
    expect((await t.database.sql`select book_id from stories where id = ${mine.id}`)[0]).toEqual({ book_id: null });

    // A family member's story (visible, but another storyteller's) is a 400 naming the field; unknown ids 404.
    const relative = await signUp(t.app);
    await newFamily(t.database.sql, owner.userId, [{ userId: relative.userId, role: 'family_contributor' }]);
    const relatives = await newStory(t.database.sql, relative.userId, { title: 'Theirs' });
    const mixed = await createBook(owner, { selectedStories: [relatives.id] });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().error).toContain('selectedStories');
    expect((await createBook(owner, { selectedStories: ['00000000-0000-4000-8000-000000000000'] })).statusCode).toBe(404);
    const dup = await createBook(owner, { selectedStories: [mine.id, mine.id] });
    expect(dup.statusCode).toBe(400);
    expect(await t.database.sql`select 1 from books where user_id = ${owner.userId}`).toHaveLength(0);
  });

  it('refuses a trim_size outside the supported list, bad references and missing fields with 400 naming the field', async () => {
    const owner = await signUp(t.app);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ trim_size: '4x6' }, 400, 'trim_size'],
      [{ trim_size: 'A4' }, 400, 'trim_size'],
      [{ trim_size: undefined }, 400, 'trim_size'],
      [{ title: '' }, 400, 'title'],
      [{ author_name: undefined }, 400, 'author_name'],
      [{ template_id: 'no-such-template' }, 400, 'template_id'],
      [{ cover_template_id: 'classic-memoir' }, 400, 'cover_template_id'],
      [{ language: 'English!' }, 400, 'language'],
      [{ keywords: 'memoir' }, 400, 'keywords'],
      [{ kdp_enrolled: 'yes' }, 400, 'kdp_enrolled'],
      [{ campaign_id: '00000000-0000-4000-8000-000000000000' }, 404, 'Campaign'],
      [{ family_group_id: '00000000-0000-4000-8000-000000000000' }, 404, 'Family group'],
    ];
    for (const [payload, status, field] of cases) {
      const res = await createBook(owner, payload);
      expect([res.statusCode, field]).toEqual([status, field]);
      expect(res.json().error).toContain(field);
    }
    const bad = await createBook(owner, { trim_size: '4x6' });
    expect(bad.json().error).toContain('5x8, 5.25x8, 5.5x8.5, 6x9, 7x10, 8x10, 8.5x11');
    // Another account's campaign is not the caller's to point at.
    const other = await signUp(t.app);
    const theirs = await newCampaign(t.database.sql, other.userId);
    expect((await createBook(owner, { campaign_id: theirs.id })).statusCode).toBe(404);
    expect(await t.database.sql`select 1 from books where user_id = ${owner.userId}`).toHaveLength(0);
  });
});

describe('chapters later', () => {
  it('adds from the library and from a recording, reorders, removes, and closes the gap a deleted story leaves', async () => {
    const owner = await signUp(t.app);
    const [a, b, c, d] = await Promise.all(['A', 'B', 'C', 'D'].map((title) => newStory(t.database.sql, owner.userId, { title, content: `<p>${title} words here</p>` })));
    const bookId = (await createBook(owner, { selectedStories: [a!.id] })).json().book.id;
    const add = (payload: object) => t.app.inject({ method: 'POST', url: `/api/books/${bookId}/chapters`, headers: owner.headers, payload });

    expect((await add({ storyId: b!.id })).statusCode).toBe(201);
    const [rec] = await t.database.sql<{ id: string }[]>`insert into recordings (user_id, title, story_id, storage_key) values (${owner.userId}, 'Tape', ${c!.id}, 'recordings/x/tape.webm') returning id`;
    const fromRecording = await add({ recordingId: rec!.id });
    expect(fromRecording.statusCode).toBe(201);
    expect(fromRecording.json().book.story_ids).toEqual([a!.id, b!.id, c!.id]);
    const [bare] = await t.database.sql<{ id: string }[]>`insert into recordings (user_id, title, storage_key) values (${owner.userId}, 'Unconverted', 'recordings/x/bare.webm') returning id`;
    const unconverted = await add({ recordingId: bare!.id });
    expect(unconverted.statusCode).toBe(409);
    expect(unconverted.json().error).toContain('convert');
    const [conv] = await t.database.sql<{ id: string }[]>`insert into conversations (user_id) values (${owner.userId}) returning id`;
    await t.database.sql`insert into story_conversions (story_id, user_id, source_type, source_id, readiness) values (${d!.id}, ${owner.userId}, 'conversation', ${conv!.id}, 'ready')`;
    expect((await add({ conversationId: conv!.id })).json().book.story_ids).toEqual([a!.id, b!.id, c!.id, d!.id]);
    expect((await add({ storyId: a!.id, recordingId: rec!.id })).statusCode).toBe(400);

    const reorder = (storyIds: string[]) => t.app.inject({ method: 'PUT', url: `/api/books/${bookId}/chapters/order`, headers: owner.headers, payload: { storyIds } });
    const reordered = await reorder([d!.id, c!.id, b!.id, a!.id]);
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json().book.chapters.map((ch: { title: string; chapter_number: number }) => `${ch.chapter_number}${ch.title}`)).toEqual(['1D', '2C', '3B', '4A']);
    // Not a permutation of the chapters: refused, order unchanged.
    for (const bad of [[d!.id, c!.id, b!.id], [d!.id, c!.id, b!.id, b!.id], [d!.id, c!.id, b!.id, '00000000-0000-4000-8000-000000000000']]) {
      const res = await reorder(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('storyIds');
    }
    expect((await getBook(owner, bookId)).story_ids).toEqual([d!.id, c!.id, b!.id, a!.id]);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/books/${bookId}/chapters/${c!.id}`, headers: owner.headers });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().book.chapters.map((ch: { chapter_number: number }) => ch.chapter_number)).toEqual([1, 2, 3]);
    expect((await t.database.sql`select book_id from stories where id = ${c!.id}`)[0]).toEqual({ book_id: null });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/books/${bookId}/chapters/${c!.id}`, headers: owner.headers })).statusCode).toBe(404);

    // Deleting a chapter's story closes the gap and updates the words.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/stories/${b!.id}`, headers: owner.headers })).statusCode).toBe(200);
    const after = await getBook(owner, bookId);
    expect(after.chapters.map((ch: { title: string; chapter_number: number }) => `${ch.chapter_number}${ch.title}`)).toEqual(['1D', '2A']);
    expect(after.word_count).toBe(6);
    expect(await t.database.sql`select chapter_number from book_chapters where book_id = ${bookId} order by chapter_number`).toEqual([{ chapter_number: 1 }, { chapter_number: 2 }]);

    // A story bound to one book cannot silently join another.
    const other = (await createBook(owner, {})).json().book.id;
    const clash = await t.app.inject({ method: 'POST', url: `/api/books/${other}/chapters`, headers: owner.headers, payload: { storyId: a!.id } });
    expect(clash.statusCode).toBe(409);
  });
});

describe('GET/PUT/DELETE /api/books', () => {
  it("lists the caller's books and the family's books apart, and drops a removed member's access at once", async () => {
    const [owner, relative, stranger] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
    const group = await newFamily(t.database.sql, owner.userId, [{ userId: relative.userId, role: 'family_viewer' }]);
    const ownersBook = (await createBook(owner, { title: "Owner's", family_group_id: group.id })).json().book;
    const relativesBook = (await createBook(relative, { title: "Relative's" })).json().book;
    await createBook(stranger, { title: "Stranger's" });

    const list = (who: SignedUp) => t.app.inject({ method: 'GET', url: '/api/books', headers: who.headers }).then((r) => r.json());
    const forRelative = await list(relative);
    expect(forRelative.books.map((b: { title: string }) => b.title)).toEqual(["Relative's"]);
    expect(forRelative.familyBooks.map((b: { title: string }) => b.title)).toEqual(["Owner's"]);
    const forOwner = await list(owner);
    expect(forOwner.books.map((b: { id: string }) => b.id)).toEqual([ownersBook.id]);
    // The list (JSON built by PostgreSQL) is the book GET /api/books/[id] serialises, chapters included,
    // plus their count (CONTRACTS §8).
    const full = await getBook(owner, ownersBook.id);
    expect(forOwner.books[0]).toEqual({ ...full, chapter_count: full.chapters.length });
    expect(forOwner.familyBooks.map((b: { id: string }) => b.id)).toEqual([relativesBook.id]);
    expect((await list(stranger)).familyBooks).toEqual([]);

    await t.database.sql`update family_members set status = 'removed' where user_id = ${relative.userId}`;
    expect((await list(relative)).familyBooks).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/api/books/${ownersBook.id}`, headers: relative.headers })).statusCode).toBe(404);
  });

  it('lists books with story_ids and chapters [{id, chapter_number, title, word_count, status}] in order, never chapter text (CONTRACTS §8)', async () => {
    const owner = await signUp(t.app);
    const [a, b, c] = [await newStory(t.database.sql, owner.userId, { title: 'A' }), await newStory(t.database.sql, owner.userId, { title: 'B' }), await newStory(t.database.sql, owner.userId, { title: 'C' })];
    const book = (await createBook(owner, { selectedStories: [c!.id, a!.id, b!.id] })).json().book;
    const listed = (await t.app.inject({ method: 'GET', url: '/api/books', headers: owner.headers })).json().books;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: book.id, chapter_count: 3, story_ids: [c!.id, a!.id, b!.id] });
    expect(listed[0].chapters).toEqual([
      { id: c!.id, chapter_number: 1, title: 'C', word_count: expect.any(Number), status: expect.stringMatching(/^(completed|draft)$/) },
      { id: a!.id, chapter_number: 2, title: 'A', word_count: expect.any(Number), status: expect.stringMatching(/^(completed|draft)$/) },
      { id: b!.id, chapter_number: 3, title: 'B', word_count: expect.any(Number), status: expect.stringMatching(/^(completed|draft)$/) },
    ]);
    for (const ch of listed[0].chapters) expect(Object.keys(ch).sort()).toEqual(['chapter_number', 'id', 'status', 'title', 'word_count']);
    const got = await getBook(owner, book.id);
    expect(listed[0].chapters).toEqual(got.chapters);
    expect(got.chapters.map((ch: { id: string; chapter_number: number }) => [ch.chapter_number, ch.id])).toEqual([
      [1, c!.id],
      [2, a!.id],
      [3, b!.id],
    ]);
    // A chapter removed through the API leaves the count in step.
    await t.app.inject({ method: 'DELETE', url: `/api/books/${book.id}/chapters/${a!.id}`, headers: owner.headers });
    const after = (await t.app.inject({ method: 'GET', url: '/api/books', headers: owner.headers })).json().books[0];
    expect(after.chapter_count).toBe(2);
    expect(after.chapters.map((ch: { id: string; chapter_number: number }) => [ch.chapter_number, ch.id])).toEqual([
      [1, c!.id],
      [2, b!.id],
    ]);
    expect(await t.database.sql`select count(*)::int as n from book_chapters where book_id = ${book.id}`).toEqual([{ n: 2 }]);
  });

  it('answers an ETag; If-None-Match is 304 while nothing changed, and each change shows at once (title, chapter, deletion, a relative\'s new book)', async () => {
    const [owner, relative] = await Promise.all([signUp(t.app), signUp(t.app)]);
    await newFamily(t.database.sql, owner.userId, [{ userId: relative.userId, role: 'family_viewer' }]);
    const story = await newStory(t.database.sql, owner.userId, { title: 'First' });
    const book = (await createBook(owner, { title: 'Before', selectedStories: [story!.id] })).json().book;
    const list = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/api/books', headers: { ...owner.headers, ...headers } });

    const first = await list();
    expect(first.statusCode).toBe(200);
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await list();
    expect(again.headers['etag']).toBe(etag);
    expect(again.body).toBe(first.body);
    const unchanged = await list({ 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');

    // Each change: a new ETag and the new list, never the cached one.
    const seen = new Set([etag]);
    const changed = async (check: (body: { books: { title: string; chapters: unknown[] }[]; familyBooks: { title: string }[] }) => void) => {
      const res = await list({ 'if-none-match': etag });
      expect(res.statusCode).toBe(200);
      expect(seen.has(res.headers['etag'] as string)).toBe(false);
      seen.add(res.headers['etag'] as string);
      check(res.json());
    };
    await t.app.inject({ method: 'PUT', url: `/api/books/${book.id}`, headers: owner.headers, payload: { title: 'After' } });
    await changed((b) => expect(b.books.map((x) => x.title)).toEqual(['After']));
    const second = await newStory(t.database.sql, owner.userId, { title: 'Second' });
    await t.app.inject({ method: 'POST', url: `/api/books/${book.id}/chapters`, headers: owner.headers, payload: { storyId: second!.id } });
    await changed((b) => expect(b.books[0]!.chapters).toHaveLength(2));
    await createBook(relative, { title: "Relative's" });
    await changed((b) => expect(b.familyBooks.map((x) => x.title)).toEqual(["Relative's"]));
    await t.app.inject({ method: 'DELETE', url: `/api/books/${book.id}`, headers: owner.headers });
    await changed((b) => expect(b.books).toEqual([]));
  });

  it('updates fields, refuses bad ones, and deletes a book leaving its stories in the library', async () => {
    const owner = await signUp(t.app);
    const s = await newStory(t.database.sql, owner.userId, { title: 'Kept' });
    const book = (await createBook(owner, { selectedStories: [s.id] })).json().book;
    const put = await t.app.inject({ method: 'PUT', url: `/api/books/${book.id}`, headers: owner.headers, payload: { title: 'Renamed', trim_size: '8.5x11', status: 'completed', subtitle: null, keywords: ['a'] } });
    expect(put.statusCode).toBe(200);
    expect(put.json().book).toMatchObject({ title: 'Renamed', trim_size: '8.5x11', status: 'completed', subtitle: null, keywords: ['a'], story_ids: [s.id] });
    const bad = await t.app.inject({ method: 'PUT', url: `/api/books/${book.id}`, headers: owner.headers, payload: { trim_size: '9x12' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('trim_size');
    expect((await t.app.inject({ method: 'PUT', url: `/api/books/${book.id}`, headers: owner.headers, payload: { status: 'lost' } })).statusCode).toBe(400);
    expect((await getBook(owner, book.id)).trim_size).toBe('8.5x11');
    // The list's stored item follows every update: it is the book, chapters included, plus their count.
    const full = await getBook(owner, book.id);
    const [summary] = (await t.app.inject({ method: 'GET', url: '/api/books', headers: owner.headers })).json().books;
    expect(summary).toEqual({ ...full, chapter_count: full.chapters.length });
    expect(summary).toMatchObject({ title: 'Renamed', status: 'completed', keywords: ['a'] });

    const del = await t.app.inject({ method: 'DELETE', url: `/api/books/${book.id}`, headers: owner.headers });
    expect(del.statusCode).toBe(200);
    expect(await t.database.sql`select 1 from books where id = ${book.id}`).toHaveLength(0);
    expect(await t.database.sql`select 1 from book_chapters where book_id = ${book.id}`).toHaveLength(0);
    expect((await t.database.sql`select book_id from stories where id = ${s.id}`)[0]).toEqual({ book_id: null });
  });
});

describe('templates', () => {
  it('serves the book and cover catalogues and the templates of a relationship; an unknown relationship is a 400 naming it', async () => {
    const user = await signUp(t.app);
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
    const books = (await get('/api/templates/books')).json().templates;
    expect(books.map((x: { id: string }) => x.id)).toEqual(['classic-memoir', 'grandparent-legacy', 'parent-stories', 'our-story', 'family-journal']);
    expect(books[0]).toEqual({ id: 'classic-memoir', name: 'Classic Memoir', description: expect.any(String), preview_url: null, category: 'memoir', relationship_type: null });
    expect((await get('/api/books/templates')).json().templates).toEqual(books);
    const covers = (await get('/api/templates/covers')).json().templates;
    expect(covers.map((x: { id: string }) => x.id)).toContain('heritage-gold');
    const forGrandparent = (await get('/api/templates/grandparent')).json();
    expect(forGrandparent).toEqual({
      relationshipType: 'grandparent',
      templates: [expect.objectContaining({ id: 'grandparent-legacy' })],
      covers: [expect.objectContaining({ id: 'heritage-gold' })],
    });
    const unknown = await get('/api/templates/cousin');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toContain('relationshipType');
    expect(await t.database.sql`select count(*)::int as n from book_templates`).toEqual([{ n: 5 }]);
    expect((await t.app.inject({ method: 'GET', url: '/api/templates/books' })).statusCode).toBe(401);
  });
});

describe('POST /api/books/content-analysis', () => {
  it('counts words and reading time, orders chapters by the years they mention, and names the gaps', async () => {
    const owner = await signUp(t.app);
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const s1 = await newStory(t.database.sql, owner.userId, { title: 'Retirement', content: `<p>In 1995 we retired to the coast. ${long}</p>` });
    const s2 = await newStory(t.database.sql, owner.userId, { title: 'Born in the snow', content: '<p>I was born in 1931 during a blizzard.</p>' });
    const s3 = await newStory(t.database.sql, owner.userId, { title: 'Recipes', content: '<p>Grandma kept her recipes in a tin.</p>' });
    const s4 = await newStory(t.database.sql, owner.userId, { title: 'Wedding', content: '<p>We married in June 1952, and moved in 1955.</p>' });
    const book = (await createBook(owner, { selectedStories: [s1.id, s2.id, s3.id, s4.id] })).json().book;
    const res = await t.app.inject({ method: 'POST', url: '/api/books/content-analysis', headers: owner.headers, payload: { bookId: book.id } });
    expect(res.statusCode).toBe(200);
    const a = res.json();
    expect(a.source).toBe('offline');
    expect(a.totals).toEqual({ chapters: 4, wordCount: book.word_count, readingMinutes: Math.round(book.word_count / 200), estimatedPages: 6 + Math.ceil(book.word_count / 300) });
    expect(a.chapters.map((c: { title: string; years: number[] }) => [c.title, c.years])).toEqual([
      ['Retirement', [1995]],
      ['Born in the snow', [1931]],
      ['Recipes', []],
      ['Wedding', [1952, 1955]],
    ]);
    expect(a.suggestedOrder).toEqual([s2.id, s4.id, s1.id, s3.id]);
    expect(a.orderChanged).toBe(true);
    expect(a.gaps).toEqual([
      { from: 1931, to: 1952, years: 21 },
      { from: 1955, to: 1995, years: 40 },
    ]);
    expect(a.suggestions.join('\n')).toMatch(/No chapter covers 1955 to 1995/);
    expect(a.suggestions.join('\n')).toMatch(/"Recipes" has \d+ words/);

    const byStories = await t.app.inject({ method: 'POST', url: '/api/books/content-analysis', headers: owner.headers, payload: { storyIds: [s3.id, s2.id] } });
    expect(byStories.json().suggestedOrder).toEqual([s2.id, s3.id]);
    const stranger = await signUp(t.app);
    const denied = await t.app.inject({ method: 'POST', url: '/api/books/content-analysis', headers: stranger.headers, payload: { bookId: book.id } });
    expect(denied.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/books/content-analysis', headers: stranger.headers, payload: { storyIds: [s1.id] } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/books/content-analysis', headers: owner.headers, payload: {} })).statusCode).toBe(400);
  });
});
