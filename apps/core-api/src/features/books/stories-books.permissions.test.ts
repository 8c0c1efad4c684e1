// Permission matrix (spec 000 Authentication 4-5) for the stories and books routes with an id: the owner, a
// family contributor, a family viewer, a removed member and a stranger each get exactly what spec 000
// Authentication 4 allows. No role = 404 (never data), a role without the permission = 403. Refused calls are
// made first and must leave the rows unchanged; the allowed callers then succeed.
import type { InjectOptions } from 'light-my-request';
import { buildTestApp, type SignedUp, type TestContext } from '../../test/helper';
import { newCast, newStory, waitForExport, type Cast } from '../../test/stories-books-factories';

let t: TestContext;
let cast: Cast;
beforeAll(async () => {
  t = await buildTestApp();
  cast = await newCast(t.app, t.database.sql);
});
afterAll(async () => t.close());

type Who = 'owner' | 'contributor' | 'viewer' | 'removed' | 'stranger';
const ORDER: Who[] = ['stranger', 'removed', 'viewer', 'contributor', 'owner'];
const READ = { owner: 200, contributor: 200, viewer: 200, removed: 404, stranger: 404 } as const;
const OWNER_ONLY = (ok: number) => ({ owner: ok, contributor: 403, viewer: 403, removed: 404, stranger: 404 }) as const;

interface Row {
  name: string;
  expected: Record<Who, number>;
  /** Fresh target for the row (ids), created by the owner. */
  setup: () => Promise<Record<string, string>>;
  request: (ids: Record<string, string>) => Omit<InjectOptions, 'headers'>;
  /** A snapshot of the rows the route may change: equal before and after every refused call. */
  state?: (ids: Record<string, string>) => Promise<unknown>;
}

const storyFor = async (authorId?: string) => ({ storyId: (await newStory(t.database.sql, cast.owner.userId, { title: 'Owned story', content: '<p>Owner words</p>', authorId })).id });
const bookWithChapters = async () => {
  const a = await newStory(t.database.sql, cast.owner.userId, { title: 'A' });
  const b = await newStory(t.database.sql, cast.owner.userId, { title: 'B' });
  const res = await t.app.inject({ method: 'POST', url: '/api/books', headers: cast.owner.headers, payload: { title: 'Owned book', author_name: 'O', trim_size: '6x9', selectedStories: [a.id, b.id] } });
  return { bookId: res.json().book.id as string, a: a.id, b: b.id };
};
const storyState = (ids: Record<string, string>) => t.database.sql`select title, content, typography, header_footer from stories where id = ${ids['storyId']!}`;
const bookState = (ids: Record<string, string>) => t.database.sql`select title, story_ids, (select count(*)::int from export_jobs e where e.book_id = b.id) as exports from books b where id = ${ids['bookId']!}`;

const rows: Row[] = [
  { name: 'GET /api/stories/[id]', expected: READ, setup: () => storyFor(), request: (i) => ({ method: 'GET', url: `/api/stories/${i['storyId']}` }) },
  {
    name: 'PUT /api/stories/[id] (owner-authored)',
    expected: OWNER_ONLY(200),
    setup: () => storyFor(),
    request: (i) => ({ method: 'PUT', url: `/api/stories/${i['storyId']}`, payload: { title: 'Changed' } }),
    state: storyState,
  },
  {
    name: 'PUT /api/stories/[id] (contributor-authored: edit_own_stories)',
    expected: { owner: 200, contributor: 200, viewer: 403, removed: 404, stranger: 404 },
    setup: () => storyFor('CONTRIBUTOR'),
    request: (i) => ({ method: 'PUT', url: `/api/stories/${i['storyId']}`, payload: { content: '<p>Edited</p>' } }),
    state: storyState,
  },
  { name: 'DELETE /api/stories/[id]', expected: OWNER_ONLY(200), setup: () => storyFor(), request: (i) => ({ method: 'DELETE', url: `/api/stories/${i['storyId']}` }), state: storyState },
  { name: 'GET /api/stories/[id]/typography', expected: READ, setup: () => storyFor(), request: (i) => ({ method: 'GET', url: `/api/stories/${i['storyId']}/typography` }) },
  {
    name: 'PUT /api/stories/[id]/typography',
    expected: OWNER_ONLY(200),
    setup: () => storyFor(),
    request: (i) => ({ method: 'PUT', url: `/api/stories/${i['storyId']}/typography`, payload: { fontFamily: 'Courier', fontSize: 10, lineHeight: 1.2 } }),
    state: storyState,
  },
  { name: 'GET /api/stories/[id]/header-footer', expected: READ, setup: () => storyFor(), request: (i) => ({ method: 'GET', url: `/api/stories/${i['storyId']}/header-footer` }) },
  {
    name: 'PUT /api/stories/[id]/header-footer',
    expected: OWNER_ONLY(200),
    setup: () => storyFor(),
    request: (i) => ({ method: 'PUT', url: `/api/stories/${i['storyId']}/header-footer`, payload: { headerText: 'Mine' } }),
    state: storyState,
  },
  {
    name: 'POST /api/stories/[id]/share',
    expected: OWNER_ONLY(201),
    setup: () => storyFor(),
    request: (i) => ({ method: 'POST', url: `/api/stories/${i['storyId']}/share` }),
    state: (i) => t.database.sql`select count(*)::int as n from story_shares where story_id = ${i['storyId']!}`,
  },
  { name: 'GET /api/stories/[id]/share', expected: OWNER_ONLY(200), setup: () => storyFor(), request: (i) => ({ method: 'GET', url: `/api/stories/${i['storyId']}/share` }) },
  {
    name: 'DELETE /api/stories/[id]/share/[shareId]',
    expected: OWNER_ONLY(200),
    setup: async () => {
      const { storyId } = await storyFor();
      const share = await t.app.inject({ method: 'POST', url: `/api/stories/${storyId}/share`, headers: cast.owner.headers });
      return { storyId, shareId: share.json().shareId as string };
    },
    request: (i) => ({ method: 'DELETE', url: `/api/stories/${i['storyId']}/share/${i['shareId']}` }),
    state: (i) => t.database.sql`select revoked_at from story_shares where share_id = ${i['shareId']!}`,
  },
  { name: 'GET /api/books/[id]', expected: READ, setup: bookWithChapters, request: (i) => ({ method: 'GET', url: `/api/books/${i['bookId']}` }) },
  {
    name: 'PUT /api/books/[id]',
    expected: OWNER_ONLY(200),
    setup: bookWithChapters,
    request: (i) => ({ method: 'PUT', url: `/api/books/${i['bookId']}`, payload: { title: 'Renamed' } }),
    state: bookState,
  },
  {
    name: 'POST /api/books/[id]/chapters',
    expected: OWNER_ONLY(201),
    setup: async () => ({ ...(await bookWithChapters()), extra: (await newStory(t.database.sql, cast.owner.userId, { title: 'C' })).id }),
    request: (i) => ({ method: 'POST', url: `/api/books/${i['bookId']}/chapters`, payload: { storyId: i['extra'] } }),
    state: bookState,
  },
  {
    name: 'PUT /api/books/[id]/chapters/order',
    expected: OWNER_ONLY(200),
    setup: bookWithChapters,
    request: (i) => ({ method: 'PUT', url: `/api/books/${i['bookId']}/chapters/order`, payload: { storyIds: [i['b'], i['a']] } }),
    state: bookState,
  },
  {
    name: 'DELETE /api/books/[id]/chapters/[storyId]',
    expected: OWNER_ONLY(200),
    setup: bookWithChapters,
    request: (i) => ({ method: 'DELETE', url: `/api/books/${i['bookId']}/chapters/${i['a']}` }),
    state: bookState,
  },
  {
    name: 'POST /api/books/content-analysis {bookId}',
    expected: READ,
    setup: bookWithChapters,
    request: (i) => ({ method: 'POST', url: '/api/books/content-analysis', payload: { bookId: i['bookId'] } }),
  },
  {
    name: 'POST /api/books/[id]/export',
    expected: OWNER_ONLY(202),
    setup: bookWithChapters,
    request: (i) => ({ method: 'POST', url: `/api/books/${i['bookId']}/export`, payload: { kind: 'cover' } }),
    state: bookState,
  },
  { name: 'GET /api/books/[id]/exports', expected: READ, setup: bookWithChapters, request: (i) => ({ method: 'GET', url: `/api/books/${i['bookId']}/exports` }) },
  {
    name: 'GET /api/books/[id]/exports/[jobId] and its download',
    expected: READ,
    setup: async () => {
      const ids = await bookWithChapters();
      const queued = await t.app.inject({ method: 'POST', url: `/api/books/${ids.bookId}/export`, headers: cast.owner.headers, payload: { kind: 'cover' } });
      const job = await waitForExport(t.app, cast.owner.headers, ids.bookId, queued.json().job.id);
      return { ...ids, jobId: String(job['id']) };
    },
    request: (i) => ({ method: 'GET', url: `/api/books/${i['bookId']}/exports/${i['jobId']}/download` }),
  },
  { name: 'DELETE /api/books/[id]', expected: OWNER_ONLY(200), setup: bookWithChapters, request: (i) => ({ method: 'DELETE', url: `/api/books/${i['bookId']}` }), state: bookState },
];

describe.each(rows)('$name', (row) => {
  it('answers each caller as the role table says, refused calls changing nothing', async () => {
    const ids = await row.setup();
    // A story "authored by the contributor" lives in the owner's library with metadata.authorId set.
    if (ids['storyId']) await t.database.sql`update stories set metadata = jsonb_set(metadata, '{authorId}', to_jsonb(${cast.contributor.userId}::text)) where id = ${ids['storyId']} and metadata->>'authorId' = 'CONTRIBUTOR'`;
    const before = row.state ? await row.state(ids) : null;
    const got: Record<string, number> = {};
    for (const who of ORDER) {
      const caller: SignedUp = cast[who];
      const res = await t.app.inject({ ...row.request(ids), headers: caller.headers });
      got[who] = res.statusCode;
      if (res.statusCode === 404) expect(res.body).not.toMatch(/Owned|Owner words/);
      if (row.state && res.statusCode >= 400) expect(await row.state(ids)).toEqual(before);
    }
    expect(got).toEqual(row.expected);
  });
});

it('GET /api/stories and GET /api/books list the owner’s content for active family only', async () => {
  const story = await newStory(t.database.sql, cast.owner.userId, { title: 'Listed story' });
  const listed = async (who: Who) => {
    const stories = (await t.app.inject({ method: 'GET', url: '/api/stories?limit=100', headers: cast[who].headers })).json().stories.map((s: { id: string }) => s.id);
    const books = (await t.app.inject({ method: 'GET', url: '/api/books', headers: cast[who].headers })).json();
    return { story: stories.includes(story.id), familyBooks: books.familyBooks.length > 0 };
  };
  expect(await listed('owner')).toEqual({ story: true, familyBooks: false });
  expect(await listed('contributor')).toEqual({ story: true, familyBooks: true });
  expect(await listed('viewer')).toEqual({ story: true, familyBooks: true });
  expect(await listed('removed')).toEqual({ story: false, familyBooks: false });
  expect(await listed('stranger')).toEqual({ story: false, familyBooks: false });
});
